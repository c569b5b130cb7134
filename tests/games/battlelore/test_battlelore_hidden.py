"""What each BattleLore seat and a spectator may see: hands, drawn scenario cards, lore choices and
face-down deployment stay private; the game is registered as one with hidden information, so the
host draws its seed in secret; the search bot's sampled states are consistent with a seat's view."""

from __future__ import annotations

import json
import re

import pytest
from helpers_battlelore import GAME, act, first, legal, position

from engine import Dice, NotationError, OptionError, get_game
from games.battlelore.setup import DECOY
from games.battlelore.state import State


def _to_deploy(seed: int = 4) -> State:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, seed)
    for seat, army in (("daqan", "fire-guard"), ("uthuk", "fire-raiders")):
        act(s, seat, f"army {army}")
        act(s, seat, "done")
    return s


def _to_play(seed: int = 4) -> State:
    s = _to_deploy(seed)
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    while s.phase == "hands":
        seat = sorted(GAME.to_act(s).seats)[0]
        act(s, seat, first(s, seat))
    return s


def test_registered_as_battlelore_with_its_seats_options_and_the_hidden_information_flag() -> None:
    game = get_game("battlelore")
    assert game is GAME and game.has_hands  # the host then draws a secret seed and posts a commitment
    assert game.seat_names({}) == ["daqan", "uthuk"]
    opts = {o.name: o for o in game.options}
    assert opts["scenario"].choices == ("into-the-fire", "standard")
    assert opts["dragon"].choices == ("on", "off")
    assert set(game.ai_levels) == {"easy", "medium", "hard"}


def test_hands_are_never_shown_to_a_spectator_or_the_other_seat() -> None:
    s = _to_play()
    for seat, other in (("daqan", "uthuk"), ("uthuk", "daqan")):
        hidden = s.piles[seat]["hand"] + s.piles[seat]["lore_hand"]
        for viewer in (other, None):
            view = GAME.view(s, viewer)
            assert all(view["state"]["cards"].get(cid, "?") == "?" for cid in hidden)
            assert view["mine"] is None or view["mine"]["seat"] == viewer
            text = json.dumps(view) + GAME.describe(view)
            assert not any(secret in text for secret in GAME.secrets(s, seat))
        own = GAME.view(s, seat)
        assert [c["id"] for c in own["mine"]["hand"]] == s.piles[seat]["hand"]
        assert "Your command cards" in GAME.describe(own)
    assert "Your command cards" not in GAME.describe(GAME.view(s, None))


def test_hand_sizes_are_public_but_not_their_cards() -> None:
    s = _to_play()
    view = GAME.view(s, None)
    assert view["players"]["daqan"]["hand"] == 4 and view["players"]["daqan"]["lore_hand"] == 2


def test_face_down_deployment_shows_where_a_card_lies_but_not_what_it_is() -> None:
    s = _to_deploy()
    act(s, "daqan", "deploy auto")
    placed = dict(s.placed)
    assert placed and any(s.cards[c] == DECOY for c in placed)
    for viewer in ("uthuk", None):
        view = GAME.view(s, viewer)
        assert {f["hex"] for f in view["facedown"]} == set(placed.values())
        assert all(set(f) == {"card", "owner", "hex"} for f in view["facedown"])
        assert all(view["state"]["cards"][cid] == "?" for cid in placed)
    mine = GAME.view(s, "daqan")["mine"]["deploy"]
    assert {d["id"]: d["name"] for d in mine} == {cid: s.cards[cid] for cid in s.piles["daqan"]["deploy"]}


def test_the_reveal_turns_units_up_and_decoys_leave() -> None:
    s = _to_deploy()
    decoys = [s.placed.get(c) for c in s.piles["daqan"]["deploy"] if s.cards[c] == DECOY]
    for seat in ("daqan", "uthuk"):
        act(s, seat, "deploy auto")
        act(s, seat, "done")
    assert not s.placed
    decoy_hexes = [s.placed.get(c) for c in s.piles["daqan"]["deploy"]]
    assert decoy_hexes == [] and all(h is None or s.unit_at(h) is None for h in decoys)
    assert len(s.units_of("daqan")) == 4 and len(s.units_of("uthuk")) == 4


def test_drawn_scenario_cards_stay_private_until_both_are_chosen() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard"}, 2)
    mine = s.piles["daqan"]["scenario"]
    assert all(GAME.view(s, v)["state"]["cards"][c] == "?" for v in ("uthuk", None) for c in mine)
    act(s, "daqan", first(s, "daqan"))
    assert GAME.view(s, "uthuk")["state"]["cards"][s.scenario_pick["daqan"]] == "?"
    act(s, "uthuk", first(s, "uthuk"))
    chosen = s.scenario_pick["daqan"]
    assert GAME.view(s, None)["state"]["cards"][chosen] == s.cards[chosen]


def test_nobody_sees_the_order_of_a_deck_not_even_its_owner() -> None:
    s = _to_play()
    own = GAME.view(s, "daqan")
    assert all(
        own["state"]["cards"].get(c, "?") == "?"
        for c in s.piles["daqan"]["lore_deck"] + s.piles["daqan"]["command"]
    )
    assert own["state"]["dice"] == 0
    assert sum(n for _, n in own["mine"]["lore_deck"]) == len(s.piles["daqan"]["lore_deck"])


def test_the_search_bot_samples_a_state_consistent_with_its_view() -> None:
    s = _to_play()
    view = GAME.view(s, "uthuk")
    world = GAME.sample_state(view, "uthuk", Dice(9))
    assert world is not None
    assert [world.cards[c] for c in world.piles["uthuk"]["hand"]] == [
        s.cards[c] for c in s.piles["uthuk"]["hand"]
    ]
    assert "?" not in world.cards.values()
    assert {u["hex"] for u in world.units.values()} == {u["hex"] for u in s.units.values()}
    assert world.dice != s.dice
    assert legal(world, "daqan") and GAME.outcome(world) is None


def test_choose_action_plays_a_legal_move_for_either_side_at_both_levels() -> None:
    s = _to_play()
    for level in ("easy", "medium"):
        action = GAME.choose_action(GAME.copy(s), "daqan", level, Dice(3))
        assert action in GAME.legal_actions(s, "daqan")
    act(s, "daqan", next(m for m in legal(s, "daqan") if m.startswith("command ")))
    act(s, "daqan", "done")  # orders nobody: the turn runs on to the lore step
    act(s, "daqan", "gain lore")
    for level in ("easy", "medium"):
        action = GAME.choose_action(GAME.copy(s), "uthuk", level, Dice(4))
        assert action in GAME.legal_actions(s, "uthuk")


def test_the_bot_answers_a_decision_it_resolves_for_the_uncontrolled_dragon() -> None:
    s = position(("citadel-guard", "daqan", "f4"), ("viper-legion", "uthuk", "l9"), scenario="into-the-fire")
    s.pending = {
        "kind": "mighty",
        "seat": "uthuk",
        "options": ["reroll", "keep"],
        "default": "reroll",
        "prompt": "?",
    }
    s.combat = {
        "attacker": s.dragon["id"] if s.dragon else "",
        "target": next(k for k, u in s.units.items() if u["hex"] == "f4"),
        "melee": True,
        "kind": "counter",
        "stage": "mighty",
        "dice": ["pierce", "lore", "lore", "lore"],
        "rerolled": [],
        "breaths": 0,
        "nowhere": None,
        "stuck": [],
        "resolver": "uthuk",
        "source": "dragon",
    }
    for level in ("easy", "medium"):
        assert str(GAME.choose_action(GAME.copy(s), "uthuk", level, Dice(5))) in ("reroll", "keep")


def test_the_bot_musters_a_whole_army_when_a_drafted_dragon_leaves_no_suggested_one_fitting() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "standard", "dragon": "on"}, 2)
    while s.phase != "deploy":
        seat = sorted(GAME.to_act(s).seats)[0]
        act(s, seat, str(GAME.choose_action(s, seat, "easy", Dice(1))))
    assert s.muster["daqan"]["units"][0] == "great-dragon"
    assert len(s.muster["daqan"]["units"]) >= 5 and s.muster["daqan"]["points"] < 5


def test_deploy_auto_puts_the_decoys_in_secret_random_places() -> None:
    # Were units placed first, the decoys would always lie on the last hexes of the spread.
    places = set()
    for seed in range(1, 9):
        s = _to_deploy(seed)
        act(s, "daqan", "deploy auto")
        spread = sorted(s.placed.values(), key=s.deploy_hexes["daqan"].index)
        decoys = {s.placed[c] for c in s.placed if s.cards[c] == DECOY}
        places.add(tuple(i for i, h in enumerate(spread) if h in decoys))
    assert len(places) > 2


def test_dragon_is_an_option_of_standard_games_only() -> None:
    assert GAME.validate_options({"scenario": "into-the-fire"}) == {
        "scenario": "into-the-fire",
        "weak_cleave": "target",
        "flame_breath": "must",
        "rules": str(GAME.rules_version),
    }
    assert GAME.validate_options({"dragon": "off"})["dragon"] == "off"
    with pytest.raises(OptionError, match="standard games"):
        GAME.validate_options({"scenario": "into-the-fire", "dragon": "on"})
    # A session stored with it before still sets up (replays and undo rebuild from setup).
    assert GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire", "dragon": "on"}, 1).fire


def test_the_bots_estimate_in_into_the_fire_rewards_damage_then_nearness_to_the_hoard() -> None:
    s = position(("citadel-guard", "daqan", "a1"), ("citadel-guard", "uthuk", "l9"), scenario="into-the-fire")
    even = GAME.evaluate(s, "daqan")
    assert s.dragon is not None and even == 0.5
    s.dragon["damage"]["daqan"] = 3
    hurt = GAME.evaluate(s, "daqan")
    assert hurt is not None and hurt > even
    s.dragon["damage"]["daqan"], s.dragon["overpowered"] = 6, ["daqan"]
    far = GAME.evaluate(s, "daqan")
    next(u for u in s.units.values() if u["hex"] == "a1")["hex"] = "f4"  # next to the hoard on f5
    near = GAME.evaluate(s, "daqan")
    assert far is not None and near is not None and near > far > hurt
    assert GAME.evaluate(s, "uthuk") == pytest.approx(1 - near)


# ---- trust by construction: no trackable ids, no ids in public forms, no deducible scenarios ------


def _leaky_view(state: State, seat: str | None) -> dict[str, object]:
    """The public view as it was before piles were masked: every pile an ordered list of ids."""
    from games.battlelore.views import visible_cards

    data = json.loads(json.dumps(state.to_json()))
    seen = visible_cards(state, seat)
    data["cards"] = {cid: (n if cid in seen else "?") for cid, n in state.cards.items()}
    return {"state": data}


def _id_tracking_attack(view_of, seed: int, steps: int = 900) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A spectator who reads the public view after every move (what /game export holds) and the
    public posts: a played card's name is posted, and the id that just joined its owner's discard
    pile is that card. Before each draw it names the card on top of the deck when it knows the
    top id. Returns (draws named correctly, draws seen)."""
    s = _to_play(seed)
    dice = Dice(seed)
    known: dict[str, str] = {}
    named = draws = 0
    for _ in range(steps):
        if GAME.outcome(s) is not None:
            break
        before = view_of(s, None)["state"]
        for cid, name in before["cards"].items():
            if name != "?":
                known[cid] = name
        guess = {}
        for seat in ("daqan", "uthuk"):
            deck = before["piles"][seat]["command"]
            if isinstance(deck, list) and deck and deck[-1] in known:
                guess[seat] = known[deck[-1]]
        hands = {seat: list(s.piles[seat]["hand"]) for seat in ("daqan", "uthuk")}
        seat = sorted(GAME.to_act(s).seats)[0]
        moves = legal(s, seat)
        move = "done" if "done" in moves and dice.below(2) == 0 else dice.choice(moves)
        _, events = GAME.act(s, seat, move)
        after = view_of(s, None)["state"]
        told = " ".join(e.text.lower() for e in events if e.to is None)
        for side in ("daqan", "uthuk"):
            pile = after["piles"][side]["discard"]
            old = before["piles"][side]["discard"]
            if isinstance(pile, list) and isinstance(old, list) and len(pile) == len(old) + 1:
                # The card just played is named in the post: its id is now known.
                for name in {s.cards[c] for c in s.piles[side]["discard"]}:
                    if name.replace("-", " ") in told:
                        known[pile[-1]] = name
            drawn = [c for c in s.piles[side]["hand"] if c not in hands[side]]
            for cid in drawn:
                draws += 1
                named += guess.get(side) == s.cards[cid]
    return named, draws


def test_the_id_tracking_attack_names_no_draw() -> None:
    """Issue: a spectator reading /game export after each move followed card ids from the discard
    pile through the reshuffle and named every draw. The public view now holds each hidden pile
    as a count, so the same attack names nothing; against the old view it names draws."""
    named, draws = _id_tracking_attack(GAME.view, seed=4)
    assert draws > 20 and named == 0
    old_named, _ = _id_tracking_attack(_leaky_view, seed=4)
    assert old_named > 0  # the attack itself works: it is the view that defeats it


def test_public_piles_are_counts_in_every_view() -> None:
    s = _to_play()
    for viewer in (None, "daqan", "uthuk"):
        piles = GAME.view(s, viewer)["state"]["piles"]
        for seat in ("daqan", "uthuk"):
            assert isinstance(piles[seat]["command"], int) and isinstance(piles[seat]["lore_deck"], int)
            if viewer != seat:
                assert isinstance(piles[seat]["hand"], int) and isinstance(piles[seat]["lore_hand"], int)


def test_a_lore_swap_is_told_without_its_card_ids() -> None:
    s = GAME.setup(["daqan", "uthuk"], {"scenario": "into-the-fire"}, 4)
    pick = next(a for a in GAME.legal_actions(s, "daqan") if a.verb == "swap")
    # From rules version 3 the card taken out is chosen first, then the one put in.
    assert GAME.play(s, "daqan", str(pick)).public == "chooses a lore card to swap out"
    swap = next(a for a in GAME.legal_actions(s, "daqan") if a.verb == "swap")
    assert GAME.public_text(s, "daqan", swap) == "swaps a lore card"
    played = GAME.play(s, "daqan", str(swap))
    assert played.public == "swaps a lore card" and not played.takes_back_a_look


def test_the_scenario_cards_are_dealt_from_a_pool_larger_than_both_hands() -> None:
    """Three each from ten stand-in cards: four stay unseen, so a player's own three do not tell
    it the other's (with six cards, three and three, they did)."""
    from games.battlelore.content import load_content

    c = load_content()
    assert len(c.scenarios) > 2 * c.scenario_draws
    others = set()
    for seed in range(12):
        s = GAME.setup(["daqan", "uthuk"], {}, seed)
        mine = {s.cards[x] for x in s.piles["daqan"]["scenario"]}
        theirs = {s.cards[x] for x in s.piles["uthuk"]["scenario"]}
        assert len(mine) == len(theirs) == c.scenario_draws and not mine & theirs
        others.add(frozenset(theirs - (set(c.scenarios) - mine)))
    assert all(not o for o in others)  # the other hand is never what is left of the pool


def test_drawing_a_lore_card_and_the_end_of_turn_draw_are_seen_by_the_engine() -> None:
    """Issue: `draw lore` and the end-of-turn command draw were undone for free. The engine sees
    the drawing seat come to know a card as it happens, whatever the game flags."""
    s = _to_play()
    dice = Dice(2)
    lore_draws = command_draws = 0
    for _ in range(300):
        seat = sorted(GAME.to_act(s).seats)[0]
        moves = legal(s, seat)
        move = "draw lore" if "draw lore" in moves else "done" if "done" in moves else dice.choice(moves)
        hand = set(s.piles[seat]["hand"])
        played = GAME.play(s, seat, move)
        drew = bool(set(s.piles[seat]["hand"]) - hand)
        if move == "draw lore" or drew:
            # Peeked (a card came into the seat's sight), or rolled (a reshuffle of a face-up
            # discard pile: the order it gave is the secret).
            assert played.takes_back_a_look and (played.peeked or played.rolled), move
            lore_draws += move == "draw lore"
            command_draws += drew
        if GAME.outcome(s) is not None:
            break
    assert lore_draws and command_draws


def test_the_notation_help_names_cards_as_players_type_them_never_by_id() -> None:
    s = _to_deploy()
    with pytest.raises(NotationError) as refused:
        GAME.parse(s, "scenario")
    said = str(refused.value)
    assert "`deploy citadel-guard c2`" in said
    assert not [cid for cid in s.cards if re.search(rf"\b{cid}\b", said)]
    # The help's form is the moves' own: a deployment names its card, never the card's id.
    GAME.act(s, "daqan", "deploy citadel-guard")  # from rules version 3 the card is taken up first
    deploys = [a for a in GAME.legal_actions(s, "daqan") if a.verb == "deploy" and len(a.args) == 2]
    assert deploys and not [a for a in deploys if a.args[0] in s.cards]
