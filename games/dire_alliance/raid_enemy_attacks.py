"""How an enemy attacks: whom (Enemy Attack Priority), the heroes' boosts before its dice and
which question that spends, the dice and the damage, grudges repaid and the opportunity attacks
around a move; and what any enemy is (alive, its stats and rank) and claims.
"""

from __future__ import annotations

from engine import rules_of
from engine.dice import Dice
from engine.game import Event
from engine.words import count
from games.dire_alliance import raid_villain
from games.dire_alliance.content import Content
from games.dire_alliance.raid_cards import boost, hero_damage, hits_left, takeable
from games.dire_alliance.raid_combat import damage_enemy, resolve_attack
from games.dire_alliance.raid_core import (
    VILLAIN,
    card_def,
    enemies_in,
    enemy_area,
    enemy_name,
    hero_name,
    hero_stat,
    living,
    minion_stat,
    villain_alive,
    villain_stat,
)
from games.dire_alliance.raid_pause import (
    RUN,
    Coming,
    ask,
    asks_few,
    look_ahead,
    say,
    tie,
    worth_asking,
)
from games.dire_alliance.rules import area_name
from games.dire_alliance.state import JSON, RaidObjective, RaidState, card_name

# ---- what an enemy is ---------------------------------------------------------------------------


def alive(state: RaidState, eid: str) -> bool:
    return villain_alive(state) if eid == VILLAIN else state.minions[eid].area is not None


def enemy_stat(state: RaidState, content: Content, eid: str, stat: str) -> int | str:
    if eid == VILLAIN:
        return villain_stat(content, state, stat)
    return minion_stat(content, state.minions[eid], stat)


def enemy_rank(state: RaidState, content: Content, eid: str) -> int:
    return content.raid.villain.rank if eid == VILLAIN else state.minions[eid].rank


def claim(state: RaidState, content: Content, eid: str, obj: RaidObjective, how: str) -> list[Event]:
    obj.claimed = True
    n = sum(o.claimed for o in state.objectives)
    events = [
        Event(
            "claim",
            f"{enemy_name(content, state, eid)} claims the {obj.colour} objective in "
            f"{area_name(content, obj.area)} ({how}; {n} claimed).",
            phase_end=True,
            headline=True,
        )
    ]
    goal = content.raid.scenario.claim_to_lose
    if n >= goal:
        claimed = count(n, "objective")
        state.result = {"winners": [], "reason": f"the enemies claimed {claimed}"}
        events.append(
            Event(
                "end", f"The enemies have claimed {claimed}: the heroes lose.", phase_end=True, headline=True
            )
        )
    return events


# ---- attacks -------------------------------------------------------------------------------------


def row_icons(state: RaidState, content: Content, seat: str, rank: int) -> int:
    """The hero's action-row cards that count for Enemy Attack Priority: those face up showing
    damage icon [rank]."""
    # reading: row-icons
    shown = state.options.get("row_icons") == "all"  # option: face-down cards' icons count too
    h = state.heroes[seat]
    return sum(1 for r in h.row if (r.up or shown) and rank in card_def(content, h, card_name(r.card)).damage)


def attack_target(
    state: RaidState, content: Content, eid: str, seats: list[str], kind: str
) -> tuple[str, str]:
    """Enemy Attack Priority: the hero with the most face-up action-row cards showing the damage
    icon of the attacker's rank (face-down cards show no icons); the rest of a tie is the players'."""
    rank = enemy_rank(state, content, eid)
    shown = state.options.get("row_icons") == "all"
    best = max(row_icons(state, content, s, rank) for s in seats)
    tied = [s for s in seats if row_icons(state, content, s, rank) == best]

    def harm(seat: str) -> float:  # hardest: the hero with the fewest cards able to take this damage
        return -takeable(state, content, seat, rank)

    pick = tie(
        state,
        content,
        tied,
        f"whom {enemy_name(content, state, eid)} attacks ({kind})",
        harm,
        word=lambda seat: state.heroes[seat].hero,
        name=lambda seat: hero_name(content, state, seat),
        concerns=tied,
        about={"tie": "target", "enemy": eid},
    )
    if len(seats) == 1:
        return pick, "the only hero it can attack"
    if len(tied) == 1:
        return (
            pick,
            f"the most {'' if shown else 'face-up '}action-row cards with damage icon [{rank}] ({best})",
        )
    cards = "card" if best <= 1 else "cards"
    face = "" if shown else "face-up "
    each = f"a tie (each has {best or 'no'} {face}action-row {cards} with damage icon [{rank}])"
    if state.options.get("enemy") == "hardest":
        return pick, f"{each}; hardest: the fewest cards left to take [{rank}] damage"
    return pick, f"{each}; the players chose"


# How an enemy phase's post names an opportunity attack (raid_combat.resolve_attack's `verb`).
OPPORTUNITY = "makes an opportunity attack on"


def enemy_melee(
    state: RaidState, content: Content, eid: str, heroes: list[str], dice: Dice, opportunity: bool
) -> list[Event]:
    """A Melee by an enemy (or its opportunity attack). A ★ Melee is the villain's ability."""
    who = enemy_name(content, state, eid)
    stat = enemy_stat(state, content, eid, "melee")
    how = OPPORTUNITY if opportunity else "attacks"
    if stat == 0:
        return []
    if stat == "★":
        star = content.raid.villain.star
        assert star is not None
        here = [h.seat for h in living(state) if h.area == enemy_area(state, eid)]
        return enemy_attack(
            state, content, eid, here, "melee", dice, f"{who} uses ★ {star.name} on everyone in its area"
        )
    if not opportunity:
        boost_before_targeting(state, content, eid, heroes)
    target, why = (
        (heroes[0], "it is leaving") if opportunity else attack_target(state, content, eid, heroes, "melee")
    )
    return enemy_attack(
        state,
        content,
        eid,
        [target],
        "melee",
        dice,
        f"{who} {how} {hero_name(content, state, target)}: {why}",
        verb=OPPORTUNITY if opportunity else "attacks",
    )


def boost_before_targeting(state: RaidState, content: Content, eid: str, seats: list[str]) -> None:
    """Boost before an enemy picks whom it attacks: face-up cards change Enemy Attack Priority, so
    each hero it may choose among is asked first (only when it has a choice to make)."""
    if len(seats) < 2 or RUN.get() is None or state.options.get("boost_window", "ask") != "ask":
        return
    rank = enemy_rank(state, content, eid)
    asking = seats
    if asks_few(state) and rules_of(state.options) >= 5:
        # reading: raid-asks
        # Rules version 5 (the fourth play-test asked each of two tied heroes before one 1-die
        # shot): one question at most, of the hero best placed to draw the attack, the one with
        # the most cards left that its hit could take; none when no boost spares a hero in danger.
        able = sorted(
            (s for s in seats if _shields(state, content, rank, seats, s)),
            key=lambda s: -takeable(state, content, s, rank),
        )
        asking = next(([s] for s in able if worth_asking(state, [s])), [])
    for seat in asking:
        if (
            asks_few(state)
            and rules_of(state.options) < 5
            and not (_shields(state, content, rank, seats, seat) and worth_asking(state, [seat]))
        ):
            continue  # its boost would spare no hero in danger, or its question is spent
        prompt = (
            f"{enemy_name(content, state, eid)} is about to choose whom to attack among "
            f"{', '.join(hero_name(content, state, s) for s in seats)} (the most face-up [{rank}] "
            f"icons): {hero_name(content, state, seat)} may boost first, or pass."
        )
        ask_boosts(state, content, seat, prompt, go="pass", about={"enemy": eid, "among": seats})


def _shields(state: RaidState, content: Content, rank: int, seats: list[str], seat: str) -> bool:
    """Under `raid_asks=few`, whether a boost by `seat` before an enemy of `rank` picks among
    `seats` changes who is attacked in a way that matters: its cards in hand with that damage icon,
    face up, would bring it level with the heroes the enemy would pick otherwise, and the hit could
    kill one of those or take their last card of that icon."""
    h = state.heroes[seat]
    adds = sum(1 for c in h.hand if rank in card_def(content, h, card_name(c)).damage)
    icons = {s: row_icons(state, content, s, rank) for s in seats}
    best = max(icons.values())
    picked = [s for s in seats if icons[s] == best and s != seat]
    return (
        adds > 0 and icons[seat] + adds >= best and any(hits_left(state, content, s, rank, 1) for s in picked)
    )


def ask_boosts(
    state: RaidState, content: Content, seat: str, prompt: str, go: str = "roll", about: JSON | None = None
) -> None:
    """Ask a hero to boost before dice or a choice: each `boost <card>` plays one face up, until
    it answers `go` or its hand is empty. The first ask says `prompt`; after a boost the channel
    has just read it, so the next ask says only what is new. `about`: the attack (attacker, kind,
    target) or the choice of target (enemy, among) the boost is for (raid_pause.Pause)."""
    h = state.heroes[seat]
    name = hero_name(content, state, seat)
    unanswered = f"{name} does not boost" + (", and the dice roll" if go == "roll" else "")
    while h.hand:
        got = ask(state, "boost", [seat], [go], prompt, default_text=unanswered, about=about)
        if got == go:
            return
        prompt = f"{name} may boost again, or {go}."
        say(boost(state, content, seat, got.split()[1]))


def boost_before_opportunity(
    state: RaidState, content: Content, seat: str, eid: str, before: list[Event]
) -> None:
    """Boost before a hero's opportunity attack on an enemy leaving its area: "at any time during
    an enemy activation (before dice are rolled)". Asked (with `boost_window=ask`) of a hero
    whose Melee rolls, or could with a card in hand; `before` is told first, so the pause reads
    in order."""
    say(before)
    h = state.heroes[seat]
    melee = hero_stat(content, h, "melee")
    could = any(card_def(content, h, card_name(c)).melee > 0 for c in h.hand)
    if RUN.get() is None or state.options.get("boost_window", "ask") != "ask" or melee is None:
        return
    if melee == 0 and not could:
        return
    if asks_few(state) and not (could and worth_asking(state, [seat])):
        return  # no card in hand adds Melee dice, or its question this round is spent
    name = hero_name(content, state, seat)
    prompt = (
        f"{enemy_name(content, state, eid)} is leaving {name}'s area: {name} may boost before its "
        "opportunity attack, or roll."
    )
    ask_boosts(state, content, seat, prompt, about={"attacker": seat, "kind": "melee", "target": eid})


def enemy_dice(state: RaidState, content: Content, eid: str, kind: str) -> int:
    stat = enemy_stat(state, content, eid, kind)
    if stat == "★":
        return raid_villain.star_dice(state, content)  # only Melee is ★
    return int(stat)


def enemy_attack(
    state: RaidState,
    content: Content,
    eid: str,
    targets: list[str],
    kind: str,
    dice: Dice,
    why: str,
    n: int | None = None,
    ranked: bool = True,
    verb: str = "attacks",
) -> list[Event]:
    """An enemy's attack on `targets` with its stat's dice (or `n`, a grudge's), boosts asked first;
    a hit costs a card with the enemy's rank icon, or (`ranked` False, a grudge's) the deck's top."""
    events = [Event("why", why + ".", detail=True)]
    rolled = enemy_dice(state, content, eid, kind) if n is None else n  # no hero's boost changes it
    rank = enemy_rank(state, content, eid)
    costs = rank if ranked else None  # the damage icon a hit costs (None: the deck's top card)
    run = RUN.get()
    if run is not None and run.dry:
        run.coming += [Coming(seat, rolled, costs) for seat in targets]  # a look-ahead notes it
    elif run is not None and state.options.get("boost_window", "ask") == "ask":
        # Boost: before the dice are rolled, each hero attacked may play cards face up.
        for seat in targets:
            h = state.heroes[seat]
            # A hit that could kill or take the hero's last card of its icon is always asked.
            urgent = hits_left(state, content, seat, costs, 1)
            if asks_few(state) and not (
                any(card_def(content, h, card_name(c)).defence > 0 for c in h.hand)
                and (urgent or not _bigger_hit_coming(state, content, seat, rolled, costs, dice))
                and worth_asking(state, [seat], urgent)
            ):
                # No card in hand adds defence dice, its question is kept for a bigger hit coming,
                # or its question this round is spent.
                continue
            if state.heroes[seat].hand:
                say(events)  # what the attack is, told before the pause
                events = []
            name = hero_name(content, state, seat)
            ask_boosts(
                state,
                content,
                seat,
                f"{name} is attacked by {enemy_name(content, state, eid)}: boost first, or roll.",
                about={
                    "attacker": eid,
                    "kind": kind,
                    "target": seat,
                    "dice": rolled,
                    "rank": enemy_rank(state, content, eid) if ranked else None,
                },
            )
    more, hit = resolve_attack(state, content, eid, targets, kind, rolled, dice, verb)
    events += more
    area = enemy_area(state, eid)
    if RUN.get() is not None:  # the roll is told before a hit hero is asked which card it loses
        say(events)
        events = []
    for seat in hit:
        events += hero_damage(state, content, seat, rank if ranked else None, dice)
        if state.result is not None:
            return events
    if eid == VILLAIN and any(state.heroes[s].area == area for s in hit):
        # The villain claims an objective in its area after damaging a hero there.
        obj = next((o for o in state.objectives if o.in_play and o.area == area), None)
        if obj is not None:
            events += claim(state, content, eid, obj, "after damaging a hero here")
    return events


def _stake(state: RaidState, content: Content, seat: str, dice: int, rank: int | None) -> tuple[int, int]:
    """What a hit puts at stake, to compare two: its dice first, then how few cards the hero has
    left that it could take."""
    return dice, -takeable(state, content, seat, rank)


def _bigger_hit_coming(
    state: RaidState, content: Content, seat: str, rolled: int, rank: int | None, dice: Dice
) -> bool:
    """Rules version 5 under `few`: is the hero's question better kept, as a bigger hit on them is
    coming later in this enemy phase (raid_pause.look_ahead)? Looked at only when the question
    would be asked now."""
    # reading: raid-asks
    if rules_of(state.options) < 5 or seat in state.asked:
        return False
    now = _stake(state, content, seat, rolled, rank)
    return any(
        c.seat == seat and _stake(state, content, seat, c.dice, c.rank) > now for c in look_ahead(state, dice)
    )


def hero_attack(
    state: RaidState, content: Content, seat: str, kind: str, target: str, dice: Dice
) -> list[Event]:
    """A hero's face-down Melee or Shoot: inside a paused run (Heroes Act, rules version 2) the
    hero may boost before the dice; then one roll, and what a hit does."""
    h = state.heroes[seat]
    if RUN.get() is not None:
        name = hero_name(content, state, seat)
        prompt = (
            f"{name} attacks ({kind}) {enemy_name(content, state, target)}: boost first (face up, "
            "for its modifiers only), or roll."
        )
        ask_boosts(state, content, seat, prompt, about={"attacker": seat, "kind": kind, "target": target})
    more, hit = resolve_attack(state, content, seat, [target], kind, hero_stat(content, h, kind) or 0, dice)
    for t in hit:
        more += damage_enemy(state, content, t, seat)
    return more + raid_villain.provoke(state, content, seat, [target])


def repay_grudges(state: RaidState, content: Content, dice: Dice) -> None:
    """Grudge (rules version 3, raid_villain.py): before its action the villain repays each grudge
    in the order the heroes earned them, an attack each (boosts asked as for any enemy attack); a
    hit costs the hero the top card of its deck, the price of attacking rather than a wound."""
    # reading: grudge-reach
    # A grudge against a hero in its area is repaid in melee, one against a hero it sees in another
    # area is shot; one against a hero it can neither reach nor see is dropped (a hero who attacks
    # and withdraws out of sight escapes it), as is one against a defeated hero.
    owed = state.villain.grudges
    if raid_villain.wrath(content, state.options) is None or not owed:
        return
    state.villain.grudges = []
    who = content.raid.villain.name
    base = raid_villain.grudge_dice(content, state.options)
    for seat in owed:
        if state.result is not None or not villain_alive(state):
            return
        h = state.heroes[seat]
        name = hero_name(content, state, seat)
        if h.defeated:
            continue
        here = state.villain.area
        if h.area == here:
            kind = "melee"
        elif content.sees(here, h.area):
            kind = "shoot"
        else:
            say(
                [
                    Event(
                        "grudge",
                        f"{who} neither reaches nor sees {name}: a grudge is dropped.",
                        headline=True,
                    )
                ]
            )
            continue
        n = base  # a grudge's own dice: the action row's modifiers are for its actions
        dice_word = "die" if n == 1 else "dice"
        why = f"{who} repays a grudge: it attacks {name} ({kind}, {n} {dice_word})"
        say(
            enemy_attack(
                state, content, VILLAIN, [seat], kind, dice, why, n=n, ranked=False, verb="repays a grudge on"
            )
        )


def opportunity_attacks_then_move(
    state: RaidState, content: Content, seat: str, to: int, dice: Dice
) -> list[Event]:
    h = state.heroes[seat]
    events: list[Event] = []
    for e in enemies_in(state, h.area):
        events += enemy_melee(state, content, e, [seat], dice, opportunity=True)
        if RUN.get() is not None:  # told in order, before the next attack may pause
            say(events)
            events = []
        if state.result is not None:
            return events
    h.area = to
    events.append(Event("move", f"{hero_name(content, state, seat)} moves to {area_name(content, to)}."))
    return events
