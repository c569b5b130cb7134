"""Ignite's own player bot (issue 13, silent seats): from small positions it attacks a minion in
range, does not walk into reach when it has a choice, buys when it can; its levels differ; it
reads no other seat's cards; and a four-player game with one bot seat is played to the end."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.errors import OptionError
from games.ignite import bot, phases, spawn_steps
from games.ignite.board import parse_square
from games.ignite.content import load_content
from games.ignite.game import Ignite
from games.ignite.state import Action, IgniteState
from tests.games.ignite.positions import hand, minion, open_field, put

G = Ignite()
C = load_content()
FOUR = ("stoneborn", "windkin", "sagekin", "skyfolk")
LEVELS = ("easy", "medium", "hard")


def make(seed: int = 1, **opts: str) -> IgniteState:
    """Four players on open grass, no minions, every unit at a far corner but St1."""
    st = open_field(FOUR, seed, **{"ties": "auto", **opts})
    for uid, sq in (("Wi1", "a18"), ("Sa1", "r18"), ("Sk1", "b18")):
        st.field.unit(uid).pos = parse_square(sq)
    return st


def bot_turn(st: IgniteState, seat: str, level: str) -> list[Action]:
    """The bot plays `seat`'s whole turn; the actions it took, its `end` last."""
    taken: list[Action] = []
    while True:
        action = G.choose_action(st, seat, level, Dice(0))
        G.act(st, seat, str(action))
        taken.append(action)
        if action.verb == "end":
            return taken
        assert len(taken) < 40, taken


# ---- attacks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_kills_a_minion_in_range_with_two_daggers(level: str) -> None:
    st = make()
    put(st, "St1", "e12")
    m = minion(st, "e11")
    hand(st, "stoneborn", "dagger", "dagger", "march", "march")
    taken = bot_turn(st, "stoneborn", level)
    assert m not in st.field.minions
    assert [str(a) for a in taken[:2]] == ["play dagger St1 e11"] * 2  # it strikes first


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_shoots_a_minion_at_range(level: str) -> None:
    st = make()
    put(st, "St1", "e14")
    m = minion(st, "e10", "black")
    hand(st, "stoneborn", "long bow", "march")
    bot_turn(st, "stoneborn", level)
    assert m not in st.field.minions


@pytest.mark.parametrize("level", LEVELS)
def test_a_lone_dagger_is_not_wasted_on_a_half_that_fades(level: str) -> None:
    st = make()
    put(st, "St1", "e5")
    minion(st, "e4")
    hand(st, "stoneborn", "dagger", "old wooden shield")
    taken = bot_turn(st, "stoneborn", level)
    assert not any(a.card == "dagger" and a.verb == "play" for a in taken)


# ---- reach ----------------------------------------------------------------------------------------


def reach_of(st: IgniteState, level: str) -> list[bot.Threat]:
    return bot.threats_of(st, C, bot.MARGIN[level])


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_does_not_walk_into_reach(level: str) -> None:
    st = make()
    put(st, "St1", "h14")
    minion(st, "h7")  # green: moves 2, range 1; seven squares away
    hand(st, "stoneborn", "march", "march", "march", "unicorn")
    bot_turn(st, "stoneborn", level)
    unit = st.field.unit("St1")
    assert bot.exposures(st, {unit.id: unit.pos}, reach_of(st, level))[unit.id] == 0
    assert unit.pos[1] >= parse_square("h14")[1]  # never nearer the minion


@pytest.mark.parametrize("level", LEVELS)
def test_a_unit_in_reach_steps_out_and_the_enemy_phase_does_not_hit_it(level: str) -> None:
    st = make()
    put(st, "St1", "h11")
    minion(st, "h8")  # in reach: two steps and a blow
    hand(st, "stoneborn", "march", "march", "old wooden shield")
    bot_turn(st, "stoneborn", level)
    unit = st.field.unit("St1")
    assert bot.exposures(st, {unit.id: unit.pos}, reach_of(st, level))[unit.id] == 0
    # No Power or Apocalypse card changes the enemies' reach this time.
    st.power_deck, st.apocalypse_deck = ["quiet dusk"], ["famine"]
    for seat in FOUR[1:]:
        G.act(st, seat, "end")
    assert st.round == 2 and st.field.unit("St1").health == 4


def test_the_bot_retreats_behind_a_shielded_ally_rather_than_stand_nearest() -> None:
    st = make()
    put(st, "St1", "h11")
    put(st, "Wi1", "g13")
    st.field.unit("Wi1").shield = 5
    minion(st, "h8")
    hand(st, "stoneborn", "march")
    taken = bot_turn(st, "stoneborn", "medium")
    unit = st.field.unit("St1")
    exposed = bot.exposures(st, {u.id: u.pos for u in st.field.units}, reach_of(st, "medium"))
    assert taken[0].verb == "play" and exposed[unit.id] == 0


# ---- buying ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_buys_when_it_can(level: str) -> None:
    st = make()
    put(st, "St1", "h18")  # a village space: the market is open to it
    hand(st, "stoneborn", "march", "march", "dagger", "dagger", "old wooden shield", "march")
    taken = bot_turn(st, "stoneborn", level)
    bought = [a.card for a in taken if a.verb == "buy"]
    assert bought
    assert all(C.cards[b].cost >= 1 for b in bought)
    names = {st.card_names[c] for c in st.cards["stoneborn"].discard + st.cards["stoneborn"].hand}
    assert set(bought) <= names | {st.card_names[c] for c in st.cards["stoneborn"].deck}


def test_easy_buys_the_cheapest_card_and_medium_its_races_plan_card() -> None:
    picks = {}
    for level in ("easy", "medium"):
        st = make()
        put(st, "St1", "h18")
        hand(st, "stoneborn", "march", "march", "dagger", "dagger", "old wooden shield", "march")
        picks[level] = next(a.card for a in bot_turn(st, "stoneborn", level) if a.verb == "buy")
    assert C.cards[picks["easy"]].cost < C.cards[picks["medium"]].cost
    assert picks["medium"] == "metal shield"  # the stoneborn plan's first card, not the dearest


def test_the_bot_walks_to_the_village_to_shop_when_it_is_safe() -> None:
    st = make()
    put(st, "St1", "h16")
    hand(st, "stoneborn", "march", "dagger", "dagger", "old wooden shield", "dagger")
    taken = bot_turn(st, "stoneborn", "medium")
    assert taken[0].verb == "play" and taken[0].card == "march" and taken[0].square.endswith("18")
    assert any(a.verb == "buy" for a in taken)


def test_no_honor_is_spent_where_nothing_can_be_bought() -> None:
    st = make()
    put(st, "St1", "h9")  # far from any village space
    hand(st, "stoneborn", "dagger", "dagger", "old wooden shield")
    taken = bot_turn(st, "stoneborn", "medium")
    assert [a.verb for a in taken] == ["end"]


# ---- decisions and levels ------------------------------------------------------------------------------


def test_hard_spends_divine_favor_on_a_big_enemy_group_and_medium_keeps_it() -> None:
    st = make(favor_prompts="on")
    card = spawn_steps.current_round_card(st, C)
    sizes = {g.face: sum(n for _, n in g.spawn) for g in card.groups}
    worst = max(sizes, key=lambda f: sizes[f])
    assert sizes[worst] > sum(sizes.values()) / len(sizes) + 0.5
    st.phase, st.round = "enemy", 1
    st.ep = {"step": "symbols", "d6": worst, "round_card": card.round}
    st.pending = {"kind": "divine_favor", "what": "roll", "detail": "", "prompt": "?", "default": "keep"}
    assert str(G.choose_action(st, "stoneborn", "hard", Dice(0))) == "favor reroll"
    assert str(G.choose_action(st, "stoneborn", "medium", Dice(0))) == "keep"


def test_hard_steers_a_tie_toward_the_tougher_unit() -> None:
    st = make(ties="players")
    put(st, "St1", "d6")  # 4 health
    put(st, "Wi1", "h6")
    st.field.unit("Wi1").health = 1
    m = minion(st, "f5")
    st.phase = "enemy"
    st.ep = {"step": "move", "order": [m.id]}
    phases.run_enemy_phase(st, C, [])
    assert st.pending is not None and st.pending["kind"] == "tie"
    assert str(G.choose_action(st, "sagekin", "hard", Dice(0))) == "choose d6"
    assert str(G.choose_action(st, "sagekin", "medium", Dice(0))) == G.to_act(st).default


def test_a_respawn_goes_to_the_corner_fewer_enemies_reach() -> None:
    st = make()
    put(st, "Wi1", "h17")
    put(st, "Sa1", "i17")
    put(st, "Sk1", "j17")
    minion(st, "c15")
    st.pending = {"kind": "respawn", "seat": "stoneborn", "prompt": "?", "default": "respawn left"}
    assert str(G.choose_action(st, "stoneborn", "medium", Dice(0))) == "respawn right"
    assert str(G.choose_action(st, "stoneborn", "easy", Dice(0))) == "respawn left"


def test_hard_moves_in_to_strike_next_and_medium_holds_back() -> None:
    st = make()
    put(st, "St1", "e16")
    m = minion(st, "e10")  # six away: beyond the long bow's 2-5 from where it stands
    hand(st, "stoneborn", "march", "long bow")
    hard = bot_turn(st, "stoneborn", "hard")
    assert m not in st.field.minions and [a.card for a in hard[:2]] == ["march", "long bow"]
    st = make()
    put(st, "St1", "e16")
    minion(st, "e10")
    hand(st, "stoneborn", "march", "long bow")
    medium = bot_turn(st, "stoneborn", "medium")
    assert not any(a.card == "long bow" and a.verb == "play" for a in medium)


def test_placement_is_ended_with_the_spread_kept() -> None:
    st = G.setup(list(FOUR), {"placement": "choose"}, 1)
    assert str(G.choose_action(st, "stoneborn", "medium", Dice(0))) == "end"


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(OptionError, match="easy, medium, hard"):
        G.choose_action(make(), "stoneborn", "grandmaster", Dice(0))


def test_a_seat_that_is_not_to_act_is_refused() -> None:
    with pytest.raises(OptionError, match="windkin has no move"):
        G.choose_action(make(), "windkin", "medium", Dice(0))


# ---- what it may know ----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_other_seats_hidden_cards_do_not_change_its_choice(level: str) -> None:
    st = make()
    put(st, "St1", "e12")
    minion(st, "e11")
    minion(st, "k9", "black")
    hand(st, "stoneborn", "dagger", "march", "long bow", "old wooden shield")
    first = G.choose_action(st, "stoneborn", level, Dice(0))
    for seat in FOUR[1:]:
        hand(st, seat, "ring of fire", "unicorn", "metal shield")
        st.cards[seat].deck.reverse()
    assert G.choose_action(st, "stoneborn", level, Dice(99)) == first


# ---- whole games ---------------------------------------------------------------------------------------


def _attack_or_end(st: IgniteState, seat: str, chooser: Dice) -> Action:
    """A stand-in for the people at the table: any attack they can make, else whatever the
    decision's default is, else the end of the turn."""
    legal = G.legal_actions(st, seat)
    turn = G.to_act(st)
    if turn.default is not None:
        return G.parse(st, turn.default)
    attacks = [a for a in legal if a.verb == "play" and C.cards[a.card].effect == "attack"]
    return attacks[chooser.below(len(attacks))] if attacks else Action("end")


def play_with_one_bot(
    seed: int, level: str, bot_seat: str = "sagekin"
) -> tuple[IgniteState, list[tuple[str, str]]]:
    st = G.setup(list(FOUR), {"placement": "auto"}, seed)
    chooser = Dice(seed)
    log: list[tuple[str, str]] = []
    for _ in range(5000):
        if G.outcome(st) is not None:
            break
        waiting = sorted(G.to_act(st).seats)
        seat = bot_seat if bot_seat in waiting else waiting[0]
        if seat == bot_seat:
            action = G.choose_action(st, seat, level, Dice(seed))
        else:
            action = _attack_or_end(st, seat, chooser)
        G.act(st, seat, str(action))
        log.append((seat, str(action)))
    return st, log


@pytest.mark.parametrize("level", LEVELS)
def test_a_four_player_game_with_one_bot_seat_is_played_to_the_end(level: str) -> None:
    st, log = play_with_one_bot(7, level)
    assert G.outcome(st) is not None
    mine = [a for s, a in log if s == "sagekin"]
    assert any(a.startswith("play ") for a in mine) and any(a.startswith("buy ") for a in mine)
    # Seed + log replays the same game: the bot leaves no trace outside the log.
    replay = G.setup(list(FOUR), {"placement": "auto"}, 7)
    for seat, text in log:
        G.act(replay, seat, text)
    assert G.to_json(replay) == G.to_json(st)


def _all_bots(seed: int, level: str) -> int:
    st = G.setup(list(FOUR), {"placement": "auto"}, seed)
    while G.outcome(st) is None:
        seat = sorted(G.to_act(st).seats)[0]
        G.act(st, seat, str(G.choose_action(st, seat, level, Dice(seed))))
    return max(st.round - 1, 0) if not st.outcome or not st.outcome["winners"] else 20


@pytest.mark.slow
def test_a_harder_bot_survives_longer() -> None:
    seeds = range(1, 7)
    easy = sum(_all_bots(s, "easy") for s in seeds)
    hard = sum(_all_bots(s, "hard") for s in seeds)
    assert hard > easy * 1.3


@pytest.mark.parametrize(("race", "seed"), [("stoneborn", 1), ("ratmen", 2), ("mendfolk", 3)])
def test_the_bot_buys_its_races_cards_of_several_kinds_and_plays_cards_for_their_effects(
    race: str, seed: int
) -> None:
    """The play-test's Suggest bought a unicorn round after round: the medium bot (which Suggest
    shows) buys its race's plan cards first and spreads its buys over kinds, through the free
    turns and four rounds."""
    st = G.setup([race, "windkin"], {"placement": "auto"}, seed)
    mine: list[tuple[str, Action]] = []
    while st.round <= 4 and G.to_act(st).seats:
        seat = sorted(G.to_act(st).seats)[0]
        action = G.choose_action(st, seat, "medium", Dice(seed))
        if seat == race:
            mine.append((st.phase, action))
        G.act(st, seat, str(action))
    bought = [a.card for _, a in mine if a.verb == "buy"]
    plan = set(bot.quick_start.plan_of(C, race).cards)
    assert plan <= set(bought), bought
    assert len(set(bought)) >= 3 and max(bought.count(n) for n in bought) <= len(bought) / 2, bought
    assert "unicorn" not in bought
    effects = [a for phase, a in mine if phase == "player" and a.verb == "play"]
    assert any(C.cards[a.card].effect not in ("honor", "draw") for a in effects), effects
