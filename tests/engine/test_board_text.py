"""The board in words is a board: from `/game board format:text` alone, a program rebuilds where
every piece, unit, marker and terrain square is, and it matches the game's own view, for seeded
positions of every mode. The alt text keeps to Discord's limit and says where the rest is."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from seeded_play import MODE_IDS, MODES, play

from engine.board_text import ALT_TEXT_LIMIT, MORE, alt_text, read_back

JSON = dict[str, Any]
Found = Counter[tuple[str, ...]]


def _name(item: str) -> str:
    """A piece's name without what is said of it in brackets."""
    return item.split(" (")[0]


# ---- what the game's own view says is where (the oracle) ------------------------------------------


def _ignis(view: JSON) -> Found:
    return Counter((e, sq) for sq, e in view["board"].items())


def _ignite(view: JSON) -> Found:
    out: Found = Counter(("unit", u["id"], u["square"]) for u in view["units"])
    out += Counter(("minion", m["name"], m["square"]) for m in view["minions"])
    out += Counter(("machine", w["id"], w["square"]) for w in view["war_machines"])
    out += Counter(("dragon", view["dragon"]["square"]) for _ in [0] if view["dragon"])
    out += Counter(("card", c["name"]) for c in view["power_cards"] + view["apocalypse_cards"])
    for row, line in enumerate(view["terrain"]):
        out += Counter(
            (k, f"{'abcdefghijklmnopqr'[col]}{row + 1}") for col, k in enumerate(line) if k != "grass"
        )
    return out


def _dire(view: JSON) -> Found:
    names = view["names"]
    if view.get("mode") == "raid":
        out: Found = Counter(
            (h["name"], str(h["area"])) for h in view["heroes"].values() if not h["defeated"]
        )
        out += Counter([(view["villain"]["name"], str(view["villain"]["area"]))])
        out += Counter(
            (_name(names[i]), str(m["area"])) for i, m in view["minions"].items() if m["area"] is not None
        )
        out += Counter(
            (f"{o['colour']} objective", str(o["area"])) for o in view["objectives"] if not o["removed"]
        )
        return out
    out = Counter((names[f["id"]], str(f["area"])) for f in view["fighters"].values() if not f["defeated"])
    out += Counter((f"{o['owner']} objective", str(o["area"])) for o in view["objectives"])
    return out


def _battlelore(view: JSON) -> Found:
    out: Found = Counter((u["owner"], u["title"], u["hex"]) for u in view["units"])
    out += Counter(("facedown", f["owner"], f["hex"]) for f in view["facedown"])
    out += Counter(("banner", side, h) for h, side in view["banners"].items())
    out += Counter(("hoard", h) for h in view["hoards"]) + Counter(("inferno", h) for h in view["infernos"])
    out += Counter(("yellow", str(i), h) for i, h in enumerate(view["yellow"], 1))
    out += Counter((k, h) for h, k in view["terrain"].items())
    return out


def _connect_four(view: JSON) -> Found:
    out: Found = Counter(
        (seat, f"{'abcdefg'[c]}{r + 1}")
        for c, column in enumerate(view["columns"])
        for r, seat in enumerate(column)
    )
    return out + Counter(("four", sq) for sq in view["line"])


# ---- what a program reads back from the words alone ------------------------------------------------


def _read_ignis(groups: dict[str, list[tuple[str, str]]]) -> Found:
    return Counter(
        (head.split()[0].lower(), place)
        for head, items in groups.items()
        if head.endswith(" tokens")
        for _, place in items
    )


def _read_ignite(groups: dict[str, list[tuple[str, str]]]) -> Found:
    out: Found = Counter()
    kinds = {"Units": "unit", "Minions": "minion", "War machines": "machine"}
    for head, items in groups.items():
        if head in kinds:
            out += Counter((kinds[head], _name(n), p) for n, p in items)
        elif head == "Elder Dragon":
            out += Counter(("dragon", p) for _, p in items)
        elif head == "Cards in play":
            out += Counter(("card", _name(n)) for n, _ in items)
        elif head.endswith(" squares") or " squares (" in head:
            out += Counter((head.split()[0].lower(), sq) for _, p in items for sq in _ignite_run(p))
    return out


def _ignite_run(run: str) -> list[str]:
    """An Ignite run of squares ("a2-a17" down a column, "a1-r1" along a row, "k16" alone)."""
    first, _, last = run.partition("-")
    if not last:
        return [first]
    (c0, r0), (c1, r1) = ((ord(sq[0]), int(sq[1:])) for sq in (first, last))
    return [f"{chr(c)}{r}" for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def _read_dire(groups: dict[str, list[tuple[str, str]]]) -> Found:
    out: Found = Counter()
    for head, items in groups.items():
        if head.startswith("Area "):
            area = head.split()[1]
            out += Counter((_name(n), area) for n, _ in items)
    return out


def _read_battlelore(groups: dict[str, list[tuple[str, str]]]) -> Found:
    out: Found = Counter()
    for head, items in groups.items():
        if head.endswith(" units"):
            owner = {"Daqan": "daqan", "Uthuk": "uthuk"}.get(head.split()[0], "dragon")
            out += Counter((owner, _name(n), p) for n, p in items)
        elif head == "Face-down deployment cards":
            out += Counter(("facedown", n.split()[0].lower(), p) for n, p in items)
        elif head == "Banners":
            out += Counter(("banner", n.split()[0].lower(), p) for n, p in items)
        elif head in ("Hoard tiles", "Inferno markers"):
            out += Counter((head.split()[0].lower(), p) for _, p in items)
        elif head == "Yellow hexes":
            out += Counter(("yellow", n.split()[-1], p) for n, p in items)
        elif head.endswith(" hexes"):
            out += Counter((head.split()[0].lower(), p) for _, p in items)
    return out


def _read_connect_four(groups: dict[str, list[tuple[str, str]]]) -> Found:
    out: Found = Counter()
    for head, items in groups.items():
        kind = "four" if head == "Four in a row" else head.split()[0].lower()
        out += Counter((kind, p) for _, p in items)
    return out


ORACLES = {
    "connect-four": (_connect_four, _read_connect_four),
    "ignis": (_ignis, _read_ignis),
    "ignite": (_ignite, _read_ignite),
    "dire-alliance": (_dire, _read_dire),
    "battlelore": (_battlelore, _read_battlelore),
}


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_every_piece_is_rebuilt_from_the_words_alone(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    if game_id not in ORACLES:
        pytest.fail(
            f"{game_id} has no oracle: add ORACLES[{game_id!r}] in tests/engine/test_board_text.py, a pair"
            " of functions (where its view puts each piece; where its board in words puts each piece)",
            pytrace=False,
        )
    truth, reader = ORACLES[game_id]
    checked = ended = 0
    for seed in (1, 2):
        for i, m in enumerate(play(game_id, options, seats, seed, plies=160)):
            ended += m.game.outcome(m.state) is not None
            if i % 10:
                continue
            view = m.game.view(m.state, None)
            expected = truth(view)
            text = m.game.board_text(view)
            assert reader(read_back(text)) == expected, text
            checked += 1
            if sum(expected.values()) > 12:
                assert len(text) > ALT_TEXT_LIMIT or alt_text(text) == text
    # Every tenth position of two games: at least 6, unless both games ended sooner (a short game).
    assert checked >= 6 or ended == 2


@pytest.mark.parametrize(("game_id", "options", "seats"), MODES, ids=MODE_IDS)
def test_alt_text_fits_discord_and_points_to_the_rest(
    game_id: str, options: dict[str, str], seats: int
) -> None:
    *_, m = play(game_id, options, seats, 3, plies=120)
    text = m.game.board_text(m.game.view(m.state, None))
    alt = alt_text(text)
    assert len(alt) <= ALT_TEXT_LIMIT
    if len(text) > ALT_TEXT_LIMIT:
        assert alt.endswith(MORE) and all(
            line in text.splitlines() for line in alt[: -len(MORE)].splitlines()
        )
    else:
        assert alt == text
