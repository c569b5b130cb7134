"""Hidden information, declared once per game and kept by the engine for every game.

A game with secrets says where they lie, in one place: `Game.hidden_zones(state)` returns a
`Zone` for every part of the state that some seat may not see. A zone is found by its `path`
into `Game.to_json(state)`: a list (a deck, a hand, the scenario cards drawn but not chosen) or
one value (a face-down card's name, an unrevealed deployment). `seen_by` names the seats that may
look at it (a hand: its owner; a deck: nobody); a spectator sees no zone. `pool` groups the
zones whose cards could have traded places for all an outsider knows: one player's hand and deck
share a pool, a hand and the other player's deck do not.

Everything the engine promises follows from that declaration, so a new game never keeps its own
list of secrets:

* `mask` is the state as one seat may know it, each zone hidden from it replaced by its size
  (a list) or None (a value), so public piles are counts and a card that moves between hidden
  zones has no identity anyone can follow. A view built on it (BattleLore's) is safe as it
  stands; a view built by hand is held to the same standard by the property test below.
* `Game.play` records, as an action happens, whether it rolled or shuffled (the engine's `Dice`
  counts its own draws) and whether a seat came to see a card it could not see before (a draw,
  a reveal): the host will not undo such an action for free (see `peeked`).
* `redeal` re-deals everything hidden from one seat in any way the rules allow (within each
  pool, sizes kept): tests/test_hidden_zones.py checks, for every registered game and mode, that
  nothing a seat or a spectator is shown changes when it does.

Every action also has a public form (`Game.public_text`): what the table is told of it. The full
notation goes only to the seat that made it, and into the export once the game is over.

A new game with secrets therefore: lists its zones in `hidden_zones` (every deck, hand and
face-down card, with who sees it and which pool it belongs to); builds `view` on `mask` or
checks it against the property; overrides `public_text` for every move whose notation names a
card it does not show (a face-down play, a swap into a deck); and draws all randomness from its
state's `Dice`. tests/test_hidden_zones.py then covers it without being told the game exists.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dice import Dice

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Zone:
    """One place in the state whose contents some seat may not see.

    `path` leads from the root of the state's JSON to a list of cards or to one card. `ids` says
    whether its entries are unique card ids (a card keeps its id as it moves between zones, so
    the engine can tell when one comes into a seat's sight); False for a value such as the name
    behind a face-down card, whose slot is its identity.
    """

    name: str
    path: Path
    seen_by: frozenset[str]
    pool: str
    ids: bool = True


def at(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def _put(data: Any, path: Path, value: Any) -> None:
    at(data, path[:-1])[path[-1]] = value


def hidden_from(zone: Zone, seat: str | None) -> bool:
    return seat is None or seat not in zone.seen_by


def mask(data: dict[str, Any], zones: Sequence[Zone], seat: str | None) -> dict[str, Any]:
    """A copy of the state's JSON as `seat` (None: a spectator) may know it: every zone hidden
    from it is its size (a list) or None (one card)."""
    out = copy.deepcopy(data)
    for zone in zones:
        if hidden_from(zone, seat):
            value = at(out, zone.path)
            _put(out, zone.path, len(value) if isinstance(value, list) else None)
    return out


def _entries(data: dict[str, Any], zone: Zone) -> Iterator[str]:
    value = at(data, zone.path)
    items = value if isinstance(value, list) else [value]
    for item in items:
        yield str(item) if zone.ids else f"{'/'.join(map(str, zone.path))}={item}"


def unseen(data: dict[str, Any], zones: Sequence[Zone], seat: str | None) -> set[str]:
    """The cards (ids, or slot=value) hidden from `seat` in this state."""
    return {e for z in zones if hidden_from(z, seat) for e in _entries(data, z)}


@dataclass(frozen=True)
class Sight:
    """Which cards each seat could not see at one moment (None: a spectator, who sees no zone)."""

    unseen: dict[str | None, frozenset[str]]

    def of(self, seat: str | None) -> frozenset[str]:
        # A seat no zone names sees what a spectator sees.
        return self.unseen.get(seat, self.unseen[None])


def sight(data: dict[str, Any], zones: Sequence[Zone]) -> Sight:
    seats: set[str | None] = {None, *(s for z in zones for s in z.seen_by)}
    return Sight({seat: frozenset(unseen(data, zones, seat)) for seat in seats})


def peeked(before: Sight, after: Sight, mover: str) -> bool:
    """Whether an action let any seat see a card it could not see before, other than the mover
    showing its own cards (a card played face up): a drawn card, a revealed deployment, the top
    of a deck turned over. Undoing such an action would let someone take back a look."""
    mine = before.of(None) - before.of(mover)
    viewers = {*before.unseen, *after.unseen, mover}
    return any((before.of(v) - after.of(v)) - mine for v in viewers)


def redeal(data: dict[str, Any], zones: Sequence[Zone], seat: str | None, dice: Dice) -> dict[str, Any]:
    """A copy of the state's JSON with everything hidden from `seat` dealt again at random: the
    cards of each pool shuffled across its hidden zones, each zone keeping its size. Any such
    state is one `seat` cannot tell from the real one, and the same dice deal any of them alike."""
    out = copy.deepcopy(data)
    pools: dict[str, list[Zone]] = {}
    for zone in zones:
        if hidden_from(zone, seat):
            pools.setdefault(zone.pool, []).append(zone)
    for members in pools.values():
        cards: list[Any] = []
        for zone in members:
            value = at(out, zone.path)
            cards += value if isinstance(value, list) else [value]
        # In a fixed order first, so the deal depends on the pool's cards and the dice alone, not
        # on where the cards lay: a deal made from the real state and one made from any other deal
        # of it are the same (what lets a suggestion be the same whatever is hidden).
        cards.sort(key=lambda card: json.dumps(card, sort_keys=True))
        dice.shuffle(cards)
        for zone in members:
            value = at(out, zone.path)
            if isinstance(value, list):
                _put(out, zone.path, [cards.pop() for _ in value])
            else:
                _put(out, zone.path, cards.pop())
    return out
