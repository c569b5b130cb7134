"""The BattleLore bot's own sense (games/battlelore/bot.py): setup choices, the decisions it takes
without search, and the estimate its search scores positions with. Each from a small position."""

from __future__ import annotations

from helpers_battlelore import GAME, act, lore_hand, position

from engine import Dice
from games.battlelore import bot, setup
from games.battlelore.content import load_content
from games.battlelore.state import SEATS, Action, State

C = load_content()


def _bot_setup(scenario: str, seed: int = 1) -> State:
    s = GAME.setup(list(SEATS), {"scenario": scenario}, seed)
    while s.phase != "play":
        seat = sorted(GAME.to_act(s).seats)[0]
        GAME.act(s, seat, str(GAME.choose_action(s, seat, "medium", Dice(seed))))
    return s


def test_setup_into_the_fire_keeps_unspent_points_as_lore_tokens_and_takes_damage_lore() -> None:
    s = _bot_setup("into-the-fire")
    for seat in SEATS:
        assert s.lore_tokens[seat] == C.fire.max_lore_tokens  # not a fifth unit instead
        p = s.piles[seat]
        mine = [s.cards[c] for n in ("lore_deck", "lore_hand", "lore_facedown") for c in p.get(n, [])]
        best = "sun-lance" if seat == "daqan" else "soul-rend"
        assert mine.count(best) == 2, mine  # swapped in: the most damage for the lore spent


def test_opening_discard_keeps_the_damage_lore_card() -> None:
    s = position(("citadel-guard", "daqan", "f2"))
    s.phase = "hands"
    kept = bot.setup_choice(
        s,
        "daqan",
        [Action("discard", ("sun-lance",)), Action("discard", ("mending-light",))],
        Dice(1),
    )
    assert kept == Action("discard", ("mending-light",))


def test_mighty_pierce_results_are_always_rerolled() -> None:
    s = position(("citadel-guard", "daqan", "f4"), scenario="into-the-fire", active="daqan")
    s.pending = {"kind": "mighty", "seat": "uthuk", "options": ["reroll", "keep"], "default": "reroll"}
    assert bot.decide(s, "uthuk", GAME.legal_actions(s, "uthuk")) == Action("reroll")


def test_flame_breath_burns_the_opponents_weakest_unit_not_ones_own() -> None:
    s = position(
        ("citadel-guard", "daqan", "f4"),
        ("yeoman-archers", "daqan", "e4", 2),
        ("blood-harvesters", "uthuk", "g4", 2),
        ("viper-legion", "uthuk", "g5"),
        scenario="into-the-fire",
    )
    s.pending = {
        "kind": "breath",
        "seat": "daqan",
        "options": ["breath e4", "breath g4", "breath g5"],
        "default": "breath e4",
    }
    assert bot.decide(s, "daqan", GAME.legal_actions(s, "daqan")) == Action("breath", ("g4",))


def test_lore_step_draws_without_a_damage_card_and_gains_for_one_it_cannot_pay() -> None:
    s = position(("citadel-guard", "daqan", "f2"), scenario="into-the-fire", step="lore")
    lore_hand(s, "daqan", "call-to-arms")
    s.lore_tokens["daqan"] = 4
    assert bot.decide(s, "daqan", GAME.legal_actions(s, "daqan")) == Action("draw", ("lore",))
    lore_hand(s, "daqan", "call-to-arms", "arrow-storm")
    s.lore_tokens["daqan"] = 1
    assert bot.decide(s, "daqan", GAME.legal_actions(s, "daqan")) == Action("gain", ("lore",))


def test_every_order_is_used_and_into_the_fire_orders_the_units_nearest_the_dragon_first() -> None:
    s = position(
        ("citadel-guard", "daqan", "c1"),
        ("citadel-guard", "daqan", "f3"),
        scenario="into-the-fire",
        step="order",
    )
    for u in s.units.values():
        u["ordered"] = False
    s.order = {"card": "forward-march", "left": {"any": 3}}
    legal = GAME.legal_actions(s, "daqan")
    assert Action("done") in legal
    assert bot.decide(s, "daqan", legal) == Action("order", ("f3",))  # the dragon is at f5
    act(s, "daqan", "order f3")
    assert bot.decide(s, "daqan", GAME.legal_actions(s, "daqan")) == Action("order", ("c1",))


def test_estimate_counts_the_damage_lore_in_hand_can_still_deal_to_the_dragon() -> None:
    s = position(
        ("citadel-guard", "daqan", "f2"), ("blood-harvesters", "uthuk", "f8"), scenario="into-the-fire"
    )
    lore_hand(s, "daqan")
    s.lore_tokens["daqan"] = 0
    bare = bot.estimate(s, "daqan")
    lore_hand(s, "daqan", "sun-lance")
    s.lore_tokens["daqan"] = 3
    armed = bot.estimate(s, "daqan")
    assert s.dragon is not None
    s.dragon["damage"]["daqan"] = 2
    lore_hand(s, "daqan")
    s.lore_tokens["daqan"] = 0
    dealt = bot.estimate(s, "daqan")
    assert bare < armed < dealt  # lore that can deal damage counts, dealt damage counts more


def test_estimate_once_overpowered_holding_the_hoard_beats_standing_next_to_it() -> None:
    s = position(
        ("citadel-guard", "daqan", "f4"), ("blood-harvesters", "uthuk", "a8"), scenario="into-the-fire"
    )
    assert s.dragon is not None
    s.dragon["damage"]["daqan"] = 6
    s.dragon["overpowered"] = ["daqan"]
    s.units[s.dragon["id"]]["hex"] = "i6"
    beside = bot.estimate(s, "daqan")
    next(u for u in s.units.values() if u["owner"] == "daqan")["hex"] = s.hoards[0]
    assert bot.estimate(s, "daqan") > beside > 0.5


def _hand(s: State, seat: str, *names: str) -> None:
    """Give `seat` exactly these command cards in hand."""
    s.piles[seat]["hand"] = setup.new_cards(s, "cmd", list(names))


def test_the_bot_never_plays_a_command_card_that_orders_no_unit_while_another_would() -> None:
    # Daqan's units are all on its left flank: Assault Right orders nobody, Probe Left two.
    s = position(
        ("citadel-guard", "daqan", "a2"),
        ("yeoman-archers", "daqan", "b2"),
        ("viper-legion", "uthuk", "b8"),
        step="command",
    )
    for u in s.units.values():
        u["ordered"] = False
    _hand(s, "daqan", "assault-right", "probe-left")
    legal = GAME.legal_actions(s, "daqan")
    assert bot.units_ordered(s, "daqan", "assault-right") == 0
    assert bot.units_ordered(s, "daqan", "probe-left") == 2
    # The search's answer, were it Assault Right, is put right; the bot as it plays never plays it.
    assert bot.sensible(s, "daqan", legal, Action("command", ("assault-right",))) == Action(
        "command", ("probe-left",)
    )
    for seed in range(1, 4):
        assert GAME.choose_action(GAME.copy(s), "daqan", "easy", Dice(seed)) == Action(
            "command", ("probe-left",)
        )


def test_a_command_card_that_orders_nobody_is_played_when_every_card_does() -> None:
    s = position(("citadel-guard", "daqan", "a2"), step="command")
    for u in s.units.values():
        u["ordered"] = False
    _hand(s, "daqan", "assault-right", "probe-right")
    legal = GAME.legal_actions(s, "daqan")
    assert bot.sensible(s, "daqan", legal, Action("command", ("assault-right",))) == Action(
        "command", ("assault-right",)
    )


def test_the_bot_gives_an_order_rather_than_end_the_order_step_with_units_to_order() -> None:
    s = position(
        ("citadel-guard", "daqan", "a2"),
        ("yeoman-archers", "daqan", "b2"),
        ("viper-legion", "uthuk", "b8"),
        step="command",
    )
    for u in s.units.values():
        u["ordered"] = False
    _hand(s, "daqan", "probe-left")
    act(s, "daqan", "command probe-left")
    assert s.step == "order"
    legal = GAME.legal_actions(s, "daqan")
    chosen = bot.sensible(s, "daqan", legal, Action("done"))
    assert chosen.verb == "order" and chosen in legal
