"""When a hero boosts at a pause of an automated run: the answer a strong player gives, which a bot
hero plays and Suggest shows (raid_why.py says it in the game's words).

A card boosted face up is a card the hero does not play later this round: in Enemies Act the hand
is what the hero plays in Heroes React (its attacks and moves), while after Enemies React the round
ends and hands are discarded unused (raid_phases.py). So a strong hero keeps its hand through
Enemies Act and spends it in Enemies React:

* before an enemy's dice on the hero (dice that can wound): boost with the card adding the most
  defence dice, when the hand would otherwise be discarded unused this round, when a hit would
  defeat the hero (no card left to lose with the attacker's damage icon), which loses the game, or
  when this very hit could take that card from the hand (a hit takes a card of its icon from the
  hand first: the card kept for later would not be there to play), unless it is the hero's last
  card of the icon (boosted away, the hit that would have taken it defeats the hero instead);
* before the hero's own dice (an opportunity attack in Enemies React): boost with the card adding
  the most of those dice when the hand would otherwise be discarded; in Heroes Act it rolls and
  keeps the hand for Heroes React;
* before an enemy picks whom it attacks: boost with a card showing its damage icon (the one adding
  the most defence dice) when that draws the attack away from every hero it would otherwise
  choose onto this hero, who then rolls more defence dice than each of them, and the hand would
  otherwise be discarded or a hit would defeat the hero it spares.

And two answers of the same strong player that are not boosts (raid_heroes.py plays them):

* which card a hit takes, of two that carry its icon: the one whose loss keeps the most cards of
  the icon the hero is shortest of (its own hand, deck and discard pile, counted by icon, not by
  copies: Brace carries [1], [2] and [3], Parry only [1]);
* which card pays for a face-down basic action (a move, an attack, a rest): the one the hand
  needs least, never a card that adds defence dice while one that adds none would do (it is kept
  to boost before an enemy's dice), then one whose special or modifiers add least.

Everything it reads is the seat's own hand or public (defence dice, face-up rows, how many cards
each hero has left with an icon, which phase it is, the pause's public facts), so a re-deal of
the cards the seat cannot see leaves the answer unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.dire_alliance.content import Content, HeroCard
from games.dire_alliance.raid_cards import hits_left
from games.dire_alliance.raid_core import VILLAIN, card_def, hero_stat
from games.dire_alliance.raid_enemy_attacks import row_icons
from games.dire_alliance.state import JSON, RaidState, card_name


@dataclass(frozen=True)
class Boost:
    """The answer (`boost <card>`, or `go`: roll or pass) and the rule's reason for it: `spent`
    (the hand is discarded unused this round), `defeat` (a hit would defeat the hero), `keep` (the
    hand is kept for later in the round), `none` (no card would help), `drawn` (the attack already
    comes to this hero), `weaker` (no hero it spares rolls fewer defence dice), `taken` (this hit
    could take the card that would be kept), `last` (kept, though this hit could take it: it is the
    hero's last card of the attacker's icon)."""

    move: str
    reason: str
    card: HeroCard | None = None


def hand_spent(state: RaidState) -> bool:
    """Is the hand discarded unused whatever the hero does: the pause is in Enemies React, and
    after it the round ends (raid_phases._enemy_phase)."""
    return state.enemy is not None and state.enemy.get("which") == "react"


def answer(state: RaidState, content: Content, seat: str, go: str, about: JSON) -> Boost:
    """The strong answer to a boost question (`go`: "roll" or "pass"); `about` is the pause's public
    facts (raid_phases.paused_on)."""
    if "among" in about:
        return _before_target(state, content, seat, go, about)
    if "attacker" not in about:
        return Boost(go, "none")
    if about["attacker"] == seat:
        best = _most(content, state, seat, about["kind"], state.heroes[seat].hand)
        if best is None:
            return Boost(go, "none")
        if hand_spent(state):
            return Boost(f"boost {best[0]}", "spent", best[1])
        return Boost(go, "keep", best[1])
    best = _most(content, state, seat, "defence", state.heroes[seat].hand)
    if best is None or int(about.get("dice", 1)) <= 0:
        return Boost(go, "none")
    if hits_left(state, content, seat, about.get("rank"), 0):
        return Boost(f"boost {best[0]}", "defeat", best[1])
    if hand_spent(state):
        return Boost(f"boost {best[0]}", "spent", best[1])
    rank = about.get("rank")
    if card_a_hit_takes(state, content, seat, rank) == best[0] and _copies_in_hand(state, seat, best[0]) == 1:
        if hits_left(state, content, seat, rank, 1):
            return Boost(go, "last", best[1])
        return Boost(f"boost {best[0]}", "taken", best[1])
    return Boost(go, "keep", best[1])


def card_a_hit_takes(state: RaidState, content: Content, seat: str, rank: int | None) -> str | None:
    """The card a hit of `rank` takes from the hand, as the hero answers which (card_to_lose): a hit
    searches the hand first (raid_cards.hero_damage). None when it takes none from the hand: no card
    there carries the icon, or the damage is unranked (the top card of the deck)."""
    if rank is None:
        return None
    h = state.heroes[seat]
    kinds = sorted({card_name(c) for c in h.hand if rank in card_def(content, h, card_name(c)).damage})
    return card_to_lose(state, content, seat, kinds) if kinds else None


def _copies_in_hand(state: RaidState, seat: str, name: str) -> int:
    return sum(1 for c in state.heroes[seat].hand if card_name(c) == name)


def _before_target(state: RaidState, content: Content, seat: str, go: str, about: JSON) -> Boost:
    eid = about["enemy"]
    rank = content.raid.villain.rank if eid == VILLAIN else state.minions[eid].rank
    among: list[str] = about["among"]
    icons = {s: row_icons(state, content, s, rank) for s in among}
    others = [s for s in among if s != seat]
    most = max(icons[s] for s in others)
    if icons[seat] > most:
        return Boost(go, "drawn")
    h = state.heroes[seat]
    showing = [c for c in h.hand if rank in card_def(content, h, card_name(c)).damage]
    best = _most(content, state, seat, "defence", showing, at_least=0)
    if best is None or icons[seat] + 1 <= most:
        return Boost(go, "none")  # no card shows its icon, or one more would not draw the attack
    spared = [s for s in others if icons[s] == most]
    mine = (hero_stat(content, h, "defence") or 0) + best[1].defence
    if any(mine <= (hero_stat(content, state.heroes[s], "defence") or 0) for s in spared):
        return Boost(go, "weaker", best[1])
    if hand_spent(state) or any(hits_left(state, content, s, rank, 0, viewer=seat) for s in spared):
        return Boost(f"boost {best[0]}", "spent" if hand_spent(state) else "defeat", best[1])
    return Boost(go, "keep", best[1])


def _most(
    content: Content, state: RaidState, seat: str, stat: str, cards: list[str], at_least: int = 1
) -> tuple[str, HeroCard] | None:
    """Of `cards`, the one adding the most `stat` dice (at least `at_least`; ties: the first by
    name), as its move word and its card."""
    h = state.heroes[seat]
    named = sorted({card_name(c) for c in cards})
    scored = [(n, card_def(content, h, n)) for n in named]
    scored = [(n, c) for n, c in scored if getattr(c, stat) >= at_least]
    if not scored:
        return None
    return max(scored, key=lambda nc: getattr(nc[1], stat))  # max keeps the first of equals


def icons_after(state: RaidState, content: Content, seat: str, lost: str) -> dict[int, int]:
    """The hero's cards (hand, deck and discard pile) carrying each damage icon, once one `lost`
    has gone to the damage pile."""
    h = state.heroes[seat]
    held = [card_name(c) for c in h.hand + h.deck + h.discard]
    held.remove(lost)
    icons = sorted({r.rank for r in content.raid.minions.ranks} | {content.raid.villain.rank})
    return {i: sum(1 for n in held if i in card_def(content, h, n).damage) for i in icons}


def card_to_lose(state: RaidState, content: Content, seat: str, options: list[str]) -> str:
    """Of the cards a hit may take, the one whose loss keeps the most cards of the icon the hero is
    shortest of (then of the next, and so on); of equals, the kind held most of, then by name."""
    h = state.heroes[seat]
    held = [card_name(c) for c in h.hand + h.deck + h.discard]
    return max(
        options,
        key=lambda n: (sorted(icons_after(state, content, seat, n).values()), held.count(n), n),
    )


def card_to_spend(state: RaidState, content: Content, seat: str, cards: list[str]) -> str:
    """Of the cards in hand that can pay for the same face-down basic action, the one the hand
    needs least: the fewest defence dice it would add when boosted, then no special, then the
    fewest other modifiers; of equals, the first by name."""
    h = state.heroes[seat]

    def need(n: str) -> tuple[int, int, int, str]:
        c = card_def(content, h, n)
        return c.defence, c.special is not None, c.melee + c.shoot, n

    return min(cards, key=need)
