"""The Suggest button's line of why in Raid Mode's words: an attack (on the villain, its wounds
left; on a minion, the only enemy the hero can reach, the only one that can reach a hero, or the
dice against its defence), a step toward the villain or an objective, a rest, a boost or a face-up
play (the modifiers it adds), consecrating an objective, a card gained; and the answers to an
enemy phase's questions (raid_pause.py): a boost or a roll before dice (the dice each side rolls
and what a card in hand would add), before an enemy picks its target (the damage icon it looks
for), which card a hit takes (the cards of each icon it leaves, what the hand keeps), and a tie (what the
choice does). Read from the board, the villain's row and wounds, the seat's own cards and the
public facts of the question (raid_phases.paused_on), so a re-deal of the cards the seat cannot
see leaves it unchanged. Any other move keeps the engine's own why (None)."""

from __future__ import annotations

from engine.words import count, listing
from games.dire_alliance import raid_boosts
from games.dire_alliance.content import Content, HeroCard
from games.dire_alliance.notation import raid_ids
from games.dire_alliance.raid_combat import defence_dice
from games.dire_alliance.raid_core import (
    STATS,
    VILLAIN,
    card_def,
    enemies_in,
    enemy_name,
    hero_name,
    hero_stat,
    living,
)
from games.dire_alliance.raid_enemy_attacks import enemy_dice, row_icons
from games.dire_alliance.raid_phases import paused_on
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import JSON, Hero, RaidState, card_name

REACH = {"melee": "reach in melee", "shoot": "shoot at"}
NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def why(state: RaidState, content: Content, seat: str, action: str, legal: list[str]) -> str | None:
    if seat not in state.heroes:
        return None
    h = state.heroes[seat]
    words = raid_ids(content, state, action).split()
    if state.pending is not None:
        return _answer(state, content, seat, words)
    if state.gains:
        return _gain(content, h, words)
    if words[0] == "boost" and len(words) == 2:
        card = card_def(content, h, words[1])
        return f"boost with {card.name}: face up, it {_adds(card)} for the rest of the round."
    if len(words) == 2 and words[1] == "special":
        card = card_def(content, h, words[0])
        assert card.special is not None
        mods = f", and face up it {_adds(card)} for the round" if _mods(card) else ""
        return f"play {card.name} face up for ➤ {card.special.name}{mods}."
    if len(words) == 2 and words[1] == "interact":
        return _consecrate(state, content, h)
    if len(words) == 2 and words[0] == "heal":
        return (
            f"heal {card_def(content, h, words[1]).name}: it goes from the damage pile to the discard pile."
        )
    ids = [raid_ids(content, state, m) for m in legal]
    if len(words) >= 2 and words[-2] in REACH:
        return _attack(state, content, seat, words, ids)
    if words == ["melee-all"]:
        here = enemies_in(state, h.area)
        return f"attack every enemy in {area_name(content, h.area)}: {count(len(here), 'enemy')} in reach."
    if (len(words) >= 2 and words[-2] in ("move", "withdraw")) or words[0] == "exert":
        return _step(state, content, seat, int(words[-1]))
    if len(words) == 3 and words[1] == "rest":
        healed = card_def(content, h, words[2]).name
        return (
            f"rest to heal {healed} (from the damage pile to the discard pile): no enemy is in "
            f"{area_name(content, h.area)}."
        )
    return None


def _attack(state: RaidState, content: Content, seat: str, words: list[str], ids: list[str]) -> str | None:
    kind, target = words[-2], words[-1]
    name = hero_name(content, state, seat)
    enemy = enemy_name(content, state, target)
    prefix = " ".join(words[:-1])
    rivals = [m for m in ids if m.rsplit(" ", 1)[0] == prefix]
    if target == VILLAIN:
        v = state.villain
        left = v.health - v.wounds
        reason = f"it has {left} of its {count(v.health, 'wound')} left"
        if len(rivals) == 1:
            reason = f"it is the only enemy {name} can {REACH[kind]}, and {reason}"
        return f"attack {enemy}: {reason}."
    if len(rivals) == 1:
        return f"attack {enemy}: it is the only enemy {name} can {REACH[kind]}."
    area = state.minions[target].area
    threatened = [
        hero_name(content, state, x.seat)
        for x in living(state)
        if x.area == area and enemies_in(state, area) == [target]
    ]
    if threatened:
        return f"attack {enemy}: it is the only enemy that can reach {' and '.join(threatened)}."
    h = state.heroes[seat]
    bonus = _step_bonus(state, content, seat) if len(words) == 2 else 0
    rolls = (hero_stat(content, h, kind) or 0) + bonus
    guard = defence_dice(state, content, target)
    return f"attack {enemy}: your {count(rolls, kind + ' die')} against its {count(guard, 'defence die')}."


def _step_bonus(state: RaidState, content: Content, seat: str) -> int:
    """The bonus dice of the special's step under way (0 outside a special)."""
    act = state.active
    if act is None:
        return 0
    special = card_def(content, state.heroes[seat], act.card).special
    return special.steps[act.step].bonus if special is not None else 0


def _step(state: RaidState, content: Content, seat: str, to: int) -> str | None:
    h = state.heroes[seat]
    here, there = content.steps[(h.area, state.villain.area)], content.steps[(to, state.villain.area)]
    villain = content.raid.villain.name
    if there < here:
        away = NUMBERS[here] if here < len(NUMBERS) else str(here)
        return f"move toward {villain}: it is {away} {'area' if here == 1 else 'areas'} away."
    goal = next((o for o in state.objectives if o.in_play and o.area == to), None)
    if goal is not None:
        return f"move to the {goal.colour} objective in {area_name(content, to)}: it is still in play."
    fled = enemies_in(state, h.area)
    if fled and not enemies_in(state, to):
        return (
            f"leave {area_name(content, h.area)}: {count(len(fled), 'enemy')} there, none in "
            f"{area_name(content, to)}."
        )
    far = content.steps[(to, state.villain.area)]
    return f"move to {area_name(content, to)}: from there {villain} is {count(far, 'area')} away."


def _consecrate(state: RaidState, content: Content, h: Hero) -> str | None:
    goal = next((o for o in state.objectives if o.in_play and o.area == h.area), None)
    if goal is None:
        return None
    claimed = sum(o.claimed for o in state.objectives)
    lose = content.raid.scenario.claim_to_lose
    return (
        f"consecrate the {goal.colour} objective in {area_name(content, h.area)}: out of play, the "
        f"enemies cannot claim it ({claimed} of the {lose} that lose the game are claimed)."
    )


def _gain(content: Content, h: Hero, words: list[str]) -> str | None:
    if words[0] != "gain" or words[1] == "none":
        return None
    card = card_def(content, h, words[1])
    icons = ", ".join(f"[{i}]" for i in card.damage)
    return (
        f"gain {card.name} for the enemy defeated: face up it {_adds(card)}, and it can take damage {icons}."
    )


# ---- the answers to an enemy phase's questions ---------------------------------------------------


def _answer(state: RaidState, content: Content, seat: str, words: list[str]) -> str | None:
    p = state.pending
    assert p is not None
    about = paused_on(state, content)
    if p["kind"] == "lose" and len(words) == 2:
        return _lose(state, content, seat, words[1], p["options"], about)
    if p["kind"] == "boost" and "attacker" in about:
        return _before_dice(state, content, seat, words, about)
    if p["kind"] == "boost" and "among" in about:
        return _before_target(state, content, seat, words, about)
    if p["kind"] == "tie" and len(words) == 2:
        return _tie(state, content, words[1], p["options"], about)
    return None


def _lose(state: RaidState, content: Content, seat: str, name: str, options: list[str], about: JSON) -> str:
    """Which card a hit takes: the hero's own cards (hand, deck and discard pile together, which it
    knows though not the deck's order), counted by the damage icons they carry, as the strong
    answer weighs them (raid_boosts.card_to_lose)."""
    h = state.heroes[seat]

    def left(n: str) -> str:
        after = raid_boosts.icons_after(state, content, seat, n)
        return ", ".join(f"[{i}] {k}" for i, k in after.items())

    card = card_def(content, h, name).name
    icon = f" with damage icon [{about['rank']}]" if "rank" in about else ""
    best = raid_boosts.card_to_lose(state, content, seat, options)
    others = "; ".join(f"after {card_def(content, h, o).name}, {left(o)}" for o in options if o != name)
    if name == best:
        why = f"it keeps the most cards of the icons you are shortest of (after it you hold {left(name)}"
    else:
        why = f"after it you hold {left(name)} (cards of each icon"
    text = f"lose {card}: of the cards{icon} you may lose, {why}" + (f"; {others})" if others else ")")
    if about.get("pile") == "hand":
        kept = [card_name(c) for c in h.hand]
        kept.remove(name)
        names = listing([card_def(content, h, c).name for c in kept])
        text += f", and your hand keeps {names}" if kept else ""
    return text + "."


def _before_dice(state: RaidState, content: Content, seat: str, words: list[str], about: JSON) -> str:
    """A boost or a roll before an attack's dice: the hero's own (Melee or Shoot dice added) or an
    enemy's on the hero (defence dice added); for the strong answer (raid_boosts.py), its reason."""
    h = state.heroes[seat]
    attacker, kind, target = about["attacker"], about["kind"], about["target"]
    if attacker == seat:
        stat, mine = kind, hero_stat(content, h, kind) or 0
        guard = defence_dice(state, content, target)
        theirs = f"{count(guard, 'defence die')} of {enemy_name(content, state, target)}"
    else:
        stat, mine = "defence", hero_stat(content, h, "defence") or 0
        rolled = int(about.get("dice", enemy_dice(state, content, attacker, kind)))
        theirs = f"{count(rolled, 'attack die')} of {enemy_name(content, state, attacker)}"
    go = str(state.pending["options"][0]) if state.pending is not None else "roll"
    strong = raid_boosts.answer(state, content, seat, go, about)
    if words[0] == "boost":
        card = card_def(content, h, words[1])
        more = getattr(card, stat)
        if more <= 0:
            return f"boost with {card.name}: no {stat} dice against {theirs}, but face up it {_adds(card)}."
        text = f"boost with {card.name}: it adds {count(more, stat + ' die')} to your {mine} against {theirs}"
        if " ".join(words) == strong.move:
            text += _spend(strong.reason, about.get("rank"), card=card.name)
        return text + "."
    best = max(
        (card_def(content, h, card_name(c)) for c in h.hand), key=lambda c: getattr(c, stat), default=None
    )
    if best is None or getattr(best, stat) <= 0:
        return f"roll: no card in your hand adds {stat} dice (your {count(mine, stat + ' die')}, {theirs})."
    text = (
        f"roll: your {count(mine, stat + ' die')} against {theirs}, keeping {best.name} in hand "
        f"(it would add {getattr(best, stat)})"
    )
    if strong.move == go and strong.reason == "keep":
        text += " to play later this round: hands are discarded only at the end of Enemies React"
    if strong.move == go and strong.reason == "last":
        text += (
            f"; this hit could take it, but it is your last card with damage icon [{about['rank']}]: "
            "boosted away, a hit would defeat you"
        )
    if strong.reason == "taken" and strong.card is not None:
        text += f", but this hit could take {strong.card.name} from your hand: boost now"
    return text + "."


def _spend(reason: str, rank: int | None, whom: str = "you", card: str = "") -> str:
    """Why a strong hero spends a card of its hand now (raid_boosts.Boost's reason); `card`, the
    card it boosts with."""
    if reason == "taken":
        return f"; boost now: this hit could take {card}, the card you would keep"
    if reason == "spent":
        return ", and after Enemies React your hand is discarded unused"
    if reason == "defeat":
        icon = f"card with damage icon [{rank}]" if rank is not None else "card in deck or discard pile"
        return f"; a hit would defeat {whom} (no {icon} left to lose)"
    return ""


def _before_target(state: RaidState, content: Content, seat: str, words: list[str], about: JSON) -> str:
    """A boost or a pass before an enemy picks whom it attacks: the most face-up cards with its
    damage icon draw the attack (Enemy Attack Priority); for the strong answer (raid_boosts.py),
    its reason."""
    h = state.heroes[seat]
    eid = about["enemy"]
    enemy = enemy_name(content, state, eid)
    rank = content.raid.villain.rank if eid == VILLAIN else state.minions[eid].rank
    others = listing([hero_name(content, state, s) for s in about["among"] if s != seat], "or")
    strong = raid_boosts.answer(state, content, seat, "pass", about)
    if words[0] == "boost":
        card = card_def(content, h, words[1])
        if rank not in card.damage:
            return (
                f"boost with {card.name}: it {_adds(card)}; with no icon [{rank}], {enemy} chooses as before."
            )
        draws = f"its icon [{rank}] draws the attack of {enemy} to you, not {others}"
        if " ".join(words) != strong.move:
            return f"boost with {card.name}: face up, {draws}."
        spared = _spared_seats(state, content, seat, about, rank)
        mine = (hero_stat(content, h, "defence") or 0) + card.defence
        rolls = listing([f"{hero_name(content, state, s)} {_defence(content, state, s)}" for s in spared])
        whom = listing([hero_name(content, state, s) for s in spared])
        text = f"boost with {card.name}: face up, {draws} (your {count(mine, 'defence die')}, {rolls})"
        text += _spend(strong.reason, rank, whom)
        return text + "."
    if strong.reason == "drawn":
        return (
            f"pass: the attack of {enemy} already comes to you (the most face-up cards with icon [{rank}])."
        )
    if strong.reason == "weaker":
        spared = _spared_seats(state, content, seat, about, rank)
        rolls = listing([f"{hero_name(content, state, s)} {_defence(content, state, s)}" for s in spared])
        return (
            f"pass: drawing the attack of {enemy} to you would spare no hero rolling fewer defence dice "
            f"than you would (they roll: {rolls})."
        )
    if strong.reason == "keep":
        return (
            f"pass: a card with icon [{rank}] would draw the attack of {enemy} to you, but you can still "
            "play it this round: hands are discarded only at the end of Enemies React."
        )
    return f"pass: a face-up card with icon [{rank}] would draw the attack of {enemy} to you, not {others}."


def _spared_seats(state: RaidState, content: Content, seat: str, about: JSON, rank: int) -> list[str]:
    """The heroes the enemy would otherwise choose among: the others with the most face-up icons."""
    others = [s for s in about["among"] if s != seat]
    most = max(row_icons(state, content, s, rank) for s in others)
    return [s for s in others if row_icons(state, content, s, rank) == most]


def _tie(state: RaidState, content: Content, word: str, options: list[str], about: JSON) -> str | None:
    """A tie's choice, by what it decides: whom an enemy attacks, where it moves, which minion
    activates."""
    kind = about.get("tie")
    if kind == "target":
        seat = next((s for s, h in state.heroes.items() if h.hero == word), None)
        if seat is None:
            return None
        eid = about["enemy"]
        rank = content.raid.villain.rank if eid == VILLAIN else state.minions[eid].rank
        others = [s for s, x in state.heroes.items() if x.hero in options and s != seat]
        rolls = listing([f"{hero_name(content, state, s)} {_defence(content, state, s)}" for s in others])
        return (
            f"choose {hero_name(content, state, seat)}: {enemy_name(content, state, eid)} attacks the hero "
            f"who rolls {count(_defence(content, state, seat), 'defence die')} (of the others tied: "
            f"{rolls}); a hit costs a card with damage icon [{rank}]."
        )
    if kind == "move" and word.isdecimal() and living(state):
        to = int(word)
        hero = min(living(state), key=lambda h: (content.steps[(to, h.area)], h.seat))
        away = count(content.steps[(to, hero.area)], "area")
        who = enemy_name(content, state, about["enemy"])
        return (
            f"choose {area_name(content, to)}: {who} moves there, {away} from "
            f"{hero_name(content, state, hero.seat)}, the nearest hero."
        )
    if kind == "activate":
        mid = word
        if mid not in state.minions or state.minions[mid].area is None:
            return None
        area = state.minions[mid].area
        assert area is not None
        return (
            f"choose {enemy_name(content, state, mid)}: it activates from {area_name(content, area)}, "
            f"one of the {count(len(options), 'minion')} nearest {hero_name(content, state, about['hero'])}."
        )
    return None


# ---- a card's words ------------------------------------------------------------------------------


def _mods(card: HeroCard) -> list[str]:
    return [f"{getattr(card, s):+d} {s}" for s in STATS if getattr(card, s)]


def _adds(card: HeroCard) -> str:
    mods = _mods(card)
    return f"adds {listing(mods)}" if mods else "adds no modifier"


def _defence(content: Content, state: RaidState, seat: str) -> int:
    return hero_stat(content, state.heroes[seat], "defence") or 0
