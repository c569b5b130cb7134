"""What BattleLore says in words: help, a seat's join line, every card's text (stand-ins say so), what a
move does in its mover's private menu, and /game hand's own cards."""

from __future__ import annotations

import pytest
from helpers_battlelore import GAME, act, first, legal, position

from engine import GameError, IllegalAction
from games.battlelore.content import load_content
from games.battlelore.game import FORMS
from games.battlelore.state import State

C = load_content()


def test_help_says_what_is_stand_in_and_how_the_dragon_card_is_read() -> None:
    text = GAME.rules_help()
    assert (
        "**Stand-ins**" in text
        and "core rulebook is not ours" in text
        and "move 3, combat 4, health 6" in text
    )
    for rule in ("draft", "swap", "hoard", "inferno", "Into the Fire", "16 VP"):
        assert rule in text, rule


def test_each_seat_says_its_side_and_units() -> None:
    assert GAME.seat_help("daqan").startswith("Daqan (the first player)")
    assert "Blood Harvesters" in GAME.seat_help("uthuk") and GAME.seat_help("uthuk").endswith("\n")


def test_every_card_unit_scenario_and_terrain_has_its_text_and_stand_ins_say_so() -> None:
    for table in (C.units, C.lore, C.commands, C.scenarios, C.terrain):
        for name, entry in table.items():
            text = GAME.card_text(name)
            assert text.startswith("**"), name
            if getattr(entry, "stand_in", True):
                assert "(stand-in" in text, name
    assert "(stand-in)" not in GAME.card_text("nowhere-to-run")  # printed in the rulesheet
    assert GAME.card_text("Great Dragon") == GAME.card_text("great-dragon")


def test_an_unknown_card_names_the_close_ones() -> None:
    with pytest.raises(IllegalAction, match="fire"):
        GAME.card_text("firestrom")


def test_a_move_says_what_it_does() -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5"))
    attack = GAME.parse(s, "attack e4 e5")
    assert (
        GAME.action_text(s, "daqan", attack)
        == "Citadel Guard attacks Viper Legion in melee (strike and cleave wound) with 3 dice."
    )
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    act(s, "daqan", "army fire-guard")
    swap = next(m for m in legal(s, "daqan") if m.startswith("swap "))
    words = GAME.action_text(s, "daqan", GAME.parse(s, swap))
    assert words.startswith("Take ") and "(secretly)" in words
    assert GAME.action_text(s, "daqan", GAME.parse(s, "muster citadel-guard")).startswith("**Citadel Guard**")


def test_hand_shows_a_seat_its_own_cards_with_their_text() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    act(s, "daqan", "deploy auto")
    text = GAME.describe(GAME.view(s, "daqan"))
    assert "Your deployment cards" in text and "face down at" in text and "Decoy (`decoy`)" in text
    act(s, "daqan", "done")
    act(s, "uthuk", "deploy auto")
    act(s, "uthuk", "done")
    text = GAME.describe(GAME.view(s, "uthuk"))
    assert "Your command cards (stand-in):" in text and "➤" in text
    for cid in s.piles["uthuk"]["hand"]:
        assert C.commands[s.cards[cid]].text in text
    assert "Your command cards" not in GAME.describe(GAME.view(s, None))


def test_the_end_of_game_summary_names_turns_units_lost_and_the_score(fixed: list[list[str]]) -> None:
    s = position(("citadel-guard", "daqan", "e4"), ("viper-legion", "uthuk", "e5", 2))
    fixed.append(["strike", "lore", "lore"])
    act(s, "daqan", "attack e4 e5")
    assert GAME.summary(s) == {
        "Scenario": "Standard game",
        "Turns": "1",
        "Units eliminated": "Daqan 0, Uthuk 1",
        "VP": "Daqan 0, Uthuk 0",
    }
    s = position(("bastion-crossbows", "daqan", "f2"), scenario="into-the-fire")
    assert GAME.summary(s)["Damage to the Great Dragon"] == "Daqan 0, Uthuk 0"


def test_a_stand_in_unit_says_so_where_it_is_mustered_and_turned_up() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 1)
    texts = act(s, "daqan", "muster shield-wardens") + act(s, "daqan", "muster citadel-guard")
    assert "Shield Wardens (stand-in)" in texts[0] and "Citadel Guard (stand-in)" not in texts[1]
    act(s, "daqan", "done")
    act(s, "uthuk", "army fire-raiders")
    act(s, "uthuk", "done")
    act(s, "daqan", "deploy auto")
    act(s, "daqan", "done")
    act(s, "uthuk", "deploy auto")
    reveal = act(s, "uthuk", "done")
    assert any("Shield Wardens (stand-in)" in t for t in reveal)


def test_the_victory_point_target_is_shown_from_the_start() -> None:
    state = GAME.setup(["daqan", "uthuk"], GAME.validate_options({}), 3)
    target = load_content().rules.victory_vp
    assert f"VP (first to {target} wins): Daqan 0, Uthuk 0" in GAME.describe(GAME.view(state, None))


def test_a_suggested_army_is_shown_at_its_cost_out_of_the_points_to_spend() -> None:
    s = GAME.setup(["daqan", "uthuk"], GAME.validate_options({"scenario": "into-the-fire"}), 4)
    army = C.armies["fire-guard"]
    cost = sum(C.units[n].cost for n in army.units)
    assert cost < army.points  # Into the Fire turns the rest into lore tokens
    text = GAME.action_text(s, "daqan", GAME.parse(s, "army fire-guard"))
    assert f"{cost} of {army.points} points: Citadel Guard" in text


def _refusal(s: State, seat: str, move: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        GAME.act(s, seat, move)
    return str(refused.value)


def test_a_refused_turn_move_says_what_was_wrong_and_the_legal_moves_of_its_kind() -> None:
    s = position(("citadel-guard", "daqan", "e4", 1), ("blight-brutes", "uthuk", "e7"), step="command")
    hand = {s.cards[cid] for cid in s.piles["daqan"]["hand"]}
    missing = next(n for n in sorted(C.commands) if n not in hand)
    said = _refusal(s, "daqan", f"command {missing}")
    assert f"{C.commands[missing].title} is not in your hand" in said
    s.piles["daqan"]["lore_hand"] = [cid for cid, n in s.cards.items() if n == "mending-light"][:1]
    s.lore_tokens["daqan"] = 1
    said = _refusal(s, "daqan", "lore mending-light e4")
    assert "Mending Light costs 2 lore tokens and you have 1." in said
    s.step = "move"
    said = _refusal(s, "daqan", "move e4 e6")
    assert "Your legal `move` moves: move e4 " in said and "move e4 e6" not in said.split("moves:")[1]


def test_the_opening_deal_says_each_seats_own_keep_with_its_command_tents() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard"}, 1)
    said: list[str] = []
    while s.phase != "hands":
        seat = sorted(GAME.to_act(s).seats)[0]
        if s.phase == "muster":
            moves = legal(s, seat)
            tent = seat == "daqan" and s.muster[seat]["tents"] < 2
            move = "muster command-tent" if tent else "done" if "done" in moves else first(s, seat)
        else:
            move = first(s, seat)
        said += act(s, seat, move)
    deal = next(t for t in said if t.startswith("Each player draws"))
    keep, lore = C.rules.command_keep, C.rules.lore_keep
    assert f"Daqan keeps {keep + 2} command and {lore} lore" in deal
    assert f"Uthuk keeps {keep} command and {lore} lore" in deal


def test_the_hoard_step_and_return_have_entries() -> None:
    hoard = GAME.explain("hoard")
    assert "treasure tile" in hoard and "`return`" in hoard and "step" in hoard
    assert "hoard hex" in GAME.explain("return")
    assert "return" in [t.name for t in GAME.glossary().in_text("`return e2 f1` or `done`")]


def test_the_great_dragons_entry_reads_its_card_in_players_words() -> None:
    text = GAME.explain("Great Dragon")
    assert "move 3, combat 4, health 6" in text and "illegible" not in text


def _to_command(card: str, *units: tuple[str, str, str]) -> State:
    """Daqan's command step with only `card` in hand and `units` on the board, none ordered yet."""
    s = position(*units, ("viper-legion", "uthuk", "e8"), step="command")
    for u in s.units.values():
        u["ordered"] = False
    s.piles["daqan"]["hand"] = [cid for cid in s.cards if s.cards[cid] == card][:1]
    return s


def test_a_command_card_that_orders_no_unit_says_so_before_the_turn_moves_on() -> None:
    s = _to_command("assault-right", ("citadel-guard", "daqan", "b2"), ("citadel-guard", "daqan", "e3"))
    said = act(s, "daqan", "command assault-right")
    assert s.step == "lore"
    assert "Assault Right orders no unit: Daqan has none in its right flank." in said
    assert said[-1] == "Nothing more to do in the order step: the lore step begins."


def test_ordering_a_unit_in_another_section_names_both_sections() -> None:
    s = _to_command("probe-left", ("citadel-guard", "daqan", "b2"), ("citadel-guard", "daqan", "h4"))
    act(s, "daqan", "command probe-left")
    assert _refusal(s, "daqan", "order h4") == (
        "`order h4` is not legal now: Citadel Guard at h4 is in your right flank, and Probe Left has "
        "orders left only for your left flank. Your legal `order` moves: order b2."
    )


def test_the_draft_is_told_once_the_move_naming_the_unit_and_the_line_what_follows() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard", "dragon": "on"}, 2)
    for seat in ("daqan", "uthuk"):
        act(s, seat, first(s, seat))
    said = act(s, "daqan", "draft great-dragon")
    # The host posts "alice (daqan) plays `draft great-dragon`": the line does not draft it again.
    assert not [t for t in said if "drafts" in t or "Great Dragon" in t], said
    assert any("14 points spent, 36 left" in t and "Daqan's lore deck" in t for t in said), said


def test_the_turn_line_names_the_step_in_the_rules_words() -> None:
    from render.battlelore import status_line

    s = position(("citadel-guard", "daqan", "c2"), step="attack")
    s.step = "vp"
    view = GAME.view(s, "daqan")
    assert "Turn 1: Daqan, VP step." in GAME.describe(view)
    assert "vp step" not in GAME.describe(view) and "daqan," not in GAME.describe(view)
    assert status_line(view) == "Turn 1 · Daqan · VP step"


def test_every_notation_form_shows_a_move_that_reads() -> None:
    s = GAME.setup(["daqan", "uthuk"], GAME.validate_options({}), 1)
    for form in FORMS:
        example = form.text.strip("`")
        assert str(GAME.parse(s, example)) == example and form.fits(example)


def test_a_typo_at_a_setup_step_shows_that_steps_forms() -> None:
    s = GAME.setup(["daqan", "uthuk"], GAME.validate_options({}), 1)
    shown: dict[str, str] = {}
    while "muster" not in shown:
        seat = sorted(GAME.to_act(s).seats)[0]
        with pytest.raises(GameError) as typo:
            GAME.act(GAME.copy(s), seat, "zzqx")
        shown.setdefault(s.phase, str(typo.value).split("A move reads like ")[1].split(".")[0])
        act(s, seat, first(s, seat))
    assert shown == {
        "scenario": "`quick` or `scenario river-ford`",
        "draft": "`quick`, `draft great-dragon` or `pass`",
        "muster": "`quick`, `army citadel-line`, `muster citadel-guard` or `swap frenzy`",
    }
