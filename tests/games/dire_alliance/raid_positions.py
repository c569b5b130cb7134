"""Raid positions at an enemy phase's boost question, shared by the tests of the strong answer
(test_raid_boosts.py) and of Suggest's why (test_raid_suggest_why.py): built on
test_raid_rules.position (the Darkwood, heroes in 11 Lantern Hut, the villain in 3 Old Chapel),
every question asked."""

from __future__ import annotations

from games.dire_alliance.state import RaidState
from tests.games.dire_alliance.test_raid_rules import enemy_phase, hand, named, place, position


def attacked(which: str, *cards: str, rank: int = 1) -> tuple[RaidState, str]:
    """Sir Aldric (defence 2) in 11 holding `cards`, an orange Shambler of `rank` there, Ravenous
    Hunger drawn in Enemies `which`: the Shambler attacks him, and he is asked before its dice.
    The state and the Shambler's name as the post gives it."""
    s = position(1, boost_window="ask")
    m = place(s, 11, "orange", rank)
    hand(s, "hero1", *cards)
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger", which=which)
    assert s.pending is not None and s.pending["kind"] == "boost" and "attacked by" in s.pending["prompt"]
    return s, f"{named(s, m)} (orange)"


def villain_leaving(which: str) -> RaidState:
    """Sir Aldric (Parry and Oathsworn in hand) with the villain in 8, Iron Shroud drawn (its
    defence +2): it walks away to the grey objective in 12, and he is asked before his
    opportunity attack on it."""
    s = position(1, boost_window="ask")
    s.objectives = [o for o in s.objectives if o.colour == "grey"]
    s.villain.area = s.heroes["hero1"].area = 8
    place(s, 1, "purple")  # Iron Shroud's minion, far off: the villain acts next
    hand(s, "hero1", "parry", "oath")
    s.last_actor = "hero1"
    enemy_phase(s, "Iron Shroud", which=which)
    assert s.pending is not None and "before its opportunity attack" in s.pending["prompt"]
    return s


def picking(which: str) -> tuple[RaidState, str]:
    """Sir Aldric (defence 2, Parry in hand: +2 and icon [1]) and Maren (defence 1, Steady Aim in
    hand) in 11 with an orange Shambler, Ravenous Hunger drawn: before it picks whom to attack,
    Sir Aldric is asked. The state and the Shambler's name as the post gives it."""
    s = position(2, boost_window="ask")
    m = place(s, 11, "orange")
    hand(s, "hero1", "parry")
    hand(s, "hero2", "aim")
    s.last_actor = "hero1"
    enemy_phase(s, "Ravenous Hunger", which=which)
    assert s.pending is not None and s.pending["options"] == ["pass"] and s.pending["seats"] == ["hero1"]
    return s, f"{named(s, m)} (orange)"
