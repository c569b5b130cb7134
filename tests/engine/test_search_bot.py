"""engine.search_bot: legal choices for any game, a sure win taken, and never a peek at hidden cards.

The toy game below has one hidden card per seat, so what the bot may know is easy to state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import Dice, Event, Game, Outcome, ToAct, get_game
from engine.errors import OptionError
from engine.search_bot import choose, turn_key

JSON = dict[str, Any]


@dataclass
class Duel:
    """High card with a pile: each seat holds one hidden card; on its turn a seat either `keep`s
    (the round is scored: higher card wins) or `swap`s its card for the pile's top (public)."""

    hands: dict[str, int]
    pile: list[int]
    turn: str = "a"
    swaps: int = 0
    done: bool = False
    dice: int = 0
    peeks: list[str] = field(default_factory=list)


class DuelGame(Game[Duel, str]):
    id = "duel-test"
    title = "Duel"
    blurb = "test"
    has_hands = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["a", "b"]

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> Duel:
        return Duel(hands={"a": 2, "b": 5}, pile=[9, 1, 4])

    def to_act(self, state: Duel) -> ToAct:
        return ToAct(frozenset() if state.done else frozenset({state.turn}))

    def legal_actions(self, state: Duel, seat: str) -> list[str]:
        if state.done or seat != state.turn:
            return []
        return ["keep", "swap"] if state.pile and state.swaps < 4 else ["keep"]

    def parse(self, state: Duel, text: str) -> str:
        return text.strip()

    def apply(self, state: Duel, seat: str, action: str) -> list[Event]:
        if action == "swap":
            state.hands[seat] = state.pile.pop(0)
            state.swaps += 1
            state.turn = "b" if seat == "a" else "a"
        else:
            state.done = True
        return []

    def view(self, state: Duel, seat: str | None) -> JSON:
        return {
            "mine": state.hands.get(seat or "", None),
            "pile": list(state.pile),
            "turn": state.turn,
            "swaps": state.swaps,
            "done": state.done,
        }

    def describe(self, view: JSON) -> str:
        return ""

    def outcome(self, state: Duel) -> Outcome | None:
        if not state.done:
            return None
        a, b = state.hands["a"], state.hands["b"]
        if a == b:
            return Outcome(frozenset(), frozenset(), "tie")
        w, lose = ("a", "b") if a > b else ("b", "a")
        return Outcome(frozenset({w}), frozenset({lose}), "higher card")

    def to_json(self, state: Duel) -> JSON:
        return {
            "schema": 1,
            "hands": state.hands,
            "pile": state.pile,
            "turn": state.turn,
            "swaps": state.swaps,
            "done": state.done,
        }

    def from_json(self, data: JSON) -> Duel:
        return Duel(dict(data["hands"]), list(data["pile"]), data["turn"], data["swaps"], data["done"])

    def sample_state(self, view: JSON, seat: str, dice: Dice) -> Duel | None:
        # The other card is any card not seen: 1..9 less the pile and our own.
        other = "b" if seat == "a" else "a"
        unseen = [c for c in range(1, 10) if c not in view["pile"] and c != view["mine"]]
        return Duel(
            {seat: view["mine"], other: dice.choice(unseen)},
            list(view["pile"]),
            view["turn"],
            view["swaps"],
            view["done"],
        )


GAME = DuelGame()


def test_the_bot_never_reads_another_seats_hidden_card() -> None:
    # Two states that differ only in b's hidden card give a's bot the same choice, seed for seed.
    for seed in range(6):
        low, high = GAME.setup(["a", "b"], {}, 0), GAME.setup(["a", "b"], {}, 0)
        low.hands["b"], high.hands["b"] = 1, 8
        low.pile, high.pile = [9, 3, 4], [9, 3, 4]
        picks = {
            choose(GAME, s, "a", "medium", Dice(seed), iterations=200, seconds=60.0) for s in (low, high)
        }
        assert len(picks) == 1


def test_the_bot_takes_a_card_it_knows_is_better() -> None:
    # a holds 2 and the pile's top is 9: after a swap no card can beat a's 9, while keeping a 2
    # loses to almost any card b may hold.
    state = GAME.setup(["a", "b"], {}, 0)
    assert choose(GAME, state, "a", "medium", Dice(3), iterations=300, seconds=60.0) == "swap"


def test_the_same_seed_gives_the_same_choice() -> None:
    state = GAME.setup(["a", "b"], {}, 0)
    one = choose(GAME, state, "a", "easy", Dice(11), iterations=30, seconds=60.0)
    two = choose(GAME, GAME.copy(state), "a", "easy", Dice(11), iterations=30, seconds=60.0)
    assert one == two


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(OptionError, match="easy, medium"):
        choose(GAME, GAME.setup(["a", "b"], {}, 0), "a", "brutal", Dice(1))


def test_a_perfect_information_game_is_searched_from_a_copy_and_stays_legal() -> None:
    ignis = get_game("ignis")
    state = ignis.setup(ignis.seat_names(ignis.validate_options({})), ignis.validate_options({}), 5)
    before = ignis.to_json(state)
    seat = sorted(ignis.to_act(state).seats)[0]
    action = choose(ignis, state, seat, "easy", Dice(2), iterations=20, seconds=60.0)
    assert action in ignis.legal_actions(state, seat)
    assert ignis.to_json(state) == before  # the real state is untouched


@dataclass
class Relay:
    """Co-operative and simultaneous: both seats may act at once, each once; the pair wins only if
    both chose `<seat>:good`."""

    picks: dict[str, str] = field(default_factory=dict)


class RelayGame(Game[Relay, str]):
    id = "relay-test"
    title = "Relay"
    blurb = "test"
    cooperative = True

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["a", "b"]

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> Relay:
        return Relay()

    def to_act(self, state: Relay) -> ToAct:
        return ToAct(frozenset(s for s in ("a", "b") if s not in state.picks))

    def legal_actions(self, state: Relay, seat: str) -> list[str]:
        return [] if seat in state.picks else [f"{seat}:bad", f"{seat}:good"]

    def parse(self, state: Relay, text: str) -> str:
        return text

    def apply(self, state: Relay, seat: str, action: str) -> list[Event]:
        state.picks[seat] = action
        return []

    def view(self, state: Relay, seat: str | None) -> JSON:
        return {"picks": dict(state.picks)}

    def describe(self, view: JSON) -> str:
        return ""

    def outcome(self, state: Relay) -> Outcome | None:
        if len(state.picks) < 2:
            return None
        both = frozenset(state.picks)
        won = all(p.endswith("good") for p in state.picks.values())
        return Outcome(both if won else frozenset(), frozenset() if won else both, "relay")

    def to_json(self, state: Relay) -> JSON:
        return {"schema": 1, "picks": dict(state.picks)}

    def from_json(self, data: JSON) -> Relay:
        return Relay(dict(data["picks"]))


def test_when_several_seats_may_act_the_bot_searches_its_own_seats_moves() -> None:
    relay = RelayGame()
    for seed in range(5):
        state = relay.setup(["a", "b"], {}, 0)
        assert choose(relay, state, "b", "easy", Dice(seed), iterations=40, seconds=60.0) == "b:good"


@dataclass
class Ambush:
    """b may strike a unit leaving its area (free) or let it go. A strike leaves the position
    unsettled until a's unit falls (a's only move); the game then scores it."""

    phase: str = "leaving"  # leaving (b decides) | struck (a's unit falls) | done
    fallen: bool = False


class AmbushGame(Game[Ambush, str]):
    id = "ambush-test"
    title = "Ambush"
    blurb = "test"

    def seat_names(self, options: Mapping[str, str]) -> list[str]:
        return ["a", "b"]

    def setup(self, seats: Sequence[str], options: Mapping[str, str], seed: int) -> Ambush:
        return Ambush()

    def to_act(self, state: Ambush) -> ToAct:
        return ToAct(
            frozenset({"b"} if state.phase == "leaving" else {"a"} if state.phase == "struck" else set())
        )

    def legal_actions(self, state: Ambush, seat: str) -> list[str]:
        if state.phase == "leaving" and seat == "b":
            return ["allow", "strike"]
        return ["fall"] if state.phase == "struck" and seat == "a" else []

    def parse(self, state: Ambush, text: str) -> str:
        return text

    def apply(self, state: Ambush, seat: str, action: str) -> list[Event]:
        if action == "strike":
            state.phase = "struck"
        elif action == "fall":
            state.phase, state.fallen = "done", True
        else:
            state.phase = "done"
        return []

    def view(self, state: Ambush, seat: str | None) -> JSON:
        return {"phase": state.phase, "fallen": state.fallen}

    def describe(self, view: JSON) -> str:
        return ""

    def outcome(self, state: Ambush) -> Outcome | None:
        if state.phase != "done":
            return None
        return (
            Outcome(frozenset({"b"}), frozenset({"a"}), "fell")
            if state.fallen
            else Outcome(frozenset(), frozenset(), "got away")
        )

    def settled(self, state: Ambush) -> bool:
        return state.phase != "struck"

    def evaluate(self, state: Ambush, seat: str) -> float | None:
        # Mid-move the leaving unit still counts, as if it got away whole: a misleading score.
        return 0.0 if seat == "b" else 1.0

    def to_json(self, state: Ambush) -> JSON:
        return {"schema": 1, "phase": state.phase, "fallen": state.fallen}

    def from_json(self, data: JSON) -> Ambush:
        return Ambush(data["phase"], data["fallen"])


def test_positions_are_scored_only_once_settled_so_a_free_attack_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import search_bot

    # No random plies after the tree: the playout stops at once, where the game is settled. Three
    # iterations: each answer tried once, then the better looking one again.
    monkeypatch.setitem(search_bot.LEVELS, "easy", search_bot.Level(3, 60.0, 60.0, 0, 1.4))
    game = AmbushGame()
    assert (
        choose(game, game.setup(["a", "b"], {}, 0), "b", "easy", Dice(1), iterations=3, seconds=60.0)
        == "strike"
    )
    # Scored mid-move instead, the free strike would look worse than letting the unit go.
    monkeypatch.setattr(AmbushGame, "settled", lambda self, state: True)
    assert (
        choose(game, game.setup(["a", "b"], {}, 0), "b", "easy", Dice(1), iterations=3, seconds=60.0)
        == "allow"
    )


def test_a_decision_whose_answers_all_lead_to_the_same_state_takes_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import search_bot

    def no_search(*args: object) -> None:
        raise AssertionError("searched a decision with one outcome")

    monkeypatch.setattr(search_bot, "_iterate", no_search)
    # Ignis at its start: every opening move differs, so the bot must search.
    ignis = get_game("ignis")
    opts = ignis.validate_options({})
    state = ignis.setup(ignis.seat_names(opts), opts, 5)
    with pytest.raises(AssertionError, match="one outcome"):
        choose(
            ignis, state, sorted(ignis.to_act(state).seats)[0], "easy", Dice(2), iterations=5, seconds=60.0
        )
    # One legal answer: a Duel whose swap pile is empty offers only `keep`.
    duel = GAME.setup(["a", "b"], {}, 0)
    duel.pile = []
    assert choose(GAME, duel, "a", "medium", Dice(1)) == "keep"
    # Two answers that leave the same position: an Ambush whose strike changes nothing.
    twin = AmbushGame()
    same = twin.setup(["a", "b"], {}, 0)
    monkeypatch.setattr(AmbushGame, "apply", lambda self, state, seat, action: [])
    assert choose(twin, same, "b", "medium", Dice(1)) == "allow"


def test_every_two_player_game_offers_a_hard_bot() -> None:
    from engine.registry import all_games

    two_player = [
        g
        for g in all_games()
        if not g.cooperative and len(g.seat_names(g.validate_options({}))) == 2 and g.ai_levels
    ]
    assert {g.id for g in two_player} >= {"ignis", "dire-alliance", "battlelore"}
    for g in two_player:
        assert g.ai_levels[-1] == "hard", g.id


def test_a_turn_shares_one_budget_and_another_games_same_turn_later_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import search_bot

    clock = [1000.0]
    monkeypatch.setattr(search_bot.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(search_bot, "_TURNS", {})
    monkeypatch.setattr(DuelGame, "turn_id", lambda self, state, seat: ("round 1", seat))
    lv = search_bot.LEVELS["medium"]
    state = GAME.setup(["a", "b"], {}, 0)
    first = search_bot._turn_deadline(search_bot.turn_key(GAME, state, "a"), lv)
    assert first == pytest.approx(1000.0 + min(lv.seconds, lv.turn_seconds / 2))
    clock[0] += lv.turn_seconds / 2  # half the turn spent: the next decision gets half the rest
    assert search_bot._turn_deadline(search_bot.turn_key(GAME, state, "a"), lv) == pytest.approx(
        clock[0] + lv.turn_seconds / 4
    )
    clock[0] += 600.0  # a later game reaches "round 1" again: a fresh budget
    assert search_bot._turn_deadline(search_bot.turn_key(GAME, state, "a"), lv) == pytest.approx(
        clock[0] + min(lv.seconds, lv.turn_seconds / 2)
    )


class ChainDuelGame(DuelGame):
    """Duel where a swap keeps the turn with the same seat, yet each swap is a new game turn (as a
    Dire Alliance defender who claims initiative in Defender Turn 2 also opens the next round)."""

    id = "chain-duel-test"

    def legal_actions(self, state: Duel, seat: str) -> list[str]:
        return ["swap"] if not state.done and seat == state.turn and state.pile else []

    def apply(self, state: Duel, seat: str, action: str) -> list[Event]:
        state.hands[seat] = state.pile.pop(0)
        state.swaps += 1
        return []

    def turn_id(self, state: Duel, seat: str) -> int:
        return state.swaps

    def turn_goes_on(self, state: Duel, seat: str) -> bool:
        return True


class ChainWithBreaksGame(ChainDuelGame):
    """The same, but the game says each of its turns is a turn of its own (an automated phase
    comes between)."""

    id = "chain-breaks-test"

    def turn_goes_on(self, state: Duel, seat: str) -> bool:
        return False


def test_a_bot_turn_lasts_until_another_seat_acts_even_across_the_games_turns() -> None:
    chain = ChainDuelGame()
    state = chain.setup(["a", "b"], {}, 0)
    first = turn_key(chain, state, "a")
    chain.apply(state, "a", choose(chain, state, "a", "medium", Dice(1)))
    assert chain.turn_id(state, "a") == 1
    assert turn_key(chain, state, "a") == first  # the same seat goes on from where it left off
    chain.apply(state, "a", choose(chain, state, "a", "medium", Dice(1)))
    state.hands["b"] = 7  # someone else changed the position before a's next decision
    assert turn_key(chain, state, "a") == (chain.id, "a", 2)


def test_a_new_turn_of_the_game_is_a_new_bot_turn_unless_the_game_says_it_goes_on() -> None:
    chain = ChainWithBreaksGame()
    state = chain.setup(["a", "b"], {}, 0)
    chain.apply(state, "a", choose(chain, state, "a", "medium", Dice(1)))
    assert turn_key(chain, state, "a") == (chain.id, "a", 1)


class HandOverGame(ChainDuelGame):
    """A swap hands the turn to the other seat and starts a new game turn."""

    id = "hand-over-test"

    def apply(self, state: Duel, seat: str, action: str) -> list[Event]:
        super().apply(state, seat, action)
        state.turn = "b" if seat == "a" else "a"
        return []


def test_the_other_seat_asked_next_starts_its_own_turn() -> None:
    game = HandOverGame()
    state = game.setup(["a", "b"], {}, 0)
    game.apply(state, "a", choose(game, state, "a", "medium", Dice(1)))
    assert turn_key(game, state, "b") == (game.id, "b", 1)


class KeepTurnDuelGame(DuelGame):
    """Duel where a swap keeps the turn: the seat decides again straight after its own answer."""

    id = "keep-turn-duel-test"

    def apply(self, state: Duel, seat: str, action: str) -> list[Event]:
        if action == "swap":
            state.hands[seat] = state.pile.pop(0)
            state.swaps += 1
        else:
            state.done = True
        return []


def test_a_seats_next_decision_starts_from_the_subtree_its_last_search_grew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import search_bot

    monkeypatch.setattr(search_bot, "_TREES", {})
    game = KeepTurnDuelGame()
    state = game.setup(["a", "b"], {}, 0)
    game.apply(state, "a", choose(game, state, "a", "medium", Dice(3), iterations=200, seconds=60.0))
    subtree = search_bot._TREES[("a", "medium", search_bot._fingerprint(game, state))]
    grown = subtree.visits
    assert grown > 0 and subtree.children  # the first search already looked at this decision
    choose(game, state, "a", "medium", Dice(4), iterations=50, seconds=60.0)
    assert subtree.visits == grown + 50  # the second search went on from it, not from nothing


def test_a_search_tree_is_not_kept_when_another_seat_is_asked_next_or_the_position_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import search_bot

    monkeypatch.setattr(search_bot, "_TREES", {})
    state = GAME.setup(["a", "b"], {}, 0)
    choose(GAME, state, "a", "medium", Dice(3), iterations=100, seconds=60.0)
    assert search_bot._TREES == {}  # a swap or a keep hands the decision to b, or ends the game
    game = KeepTurnDuelGame()
    state = game.setup(["a", "b"], {}, 0)
    game.apply(state, "a", choose(game, state, "a", "medium", Dice(3), iterations=100, seconds=60.0))
    state.hands["b"] = 7  # something else changed before a's next decision: its tree does not fit
    kept = dict(search_bot._TREES)
    assert kept  # a swapped and decides again
    choose(game, state, "a", "medium", Dice(4), iterations=10, seconds=60.0)
    assert all(search_bot._TREES.get(k) is node for k, node in kept.items())
