"""Quick start in the move menus: any game whose legal list holds `quick` (a seat's suggested
setup) gets a first button, on the first page, that says "Quick start" rather than the bare word.
Checked on the menu builder and through the host with a game whose legal list is patched."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.host import Host
from bot.menus import PAGE, QUICK, QUICK_HINT, QUICK_LABEL, ButtonId, menu, resolve
from bot.posts import Caller
from engine import Game, get_game
from tests.test_conformance import VARIANT_IDS, VARIANTS

ALICE = Caller("alice", "alice", "table", guild="g1")
BOB = Caller("bob", "bob", "table", guild="g1")


def _placements(n: int) -> list[str]:
    return [f"place u{i} c{i}" if i % 2 else f"buy item{i}" for i in range(n)]


def test_quick_start_is_the_first_button_of_the_first_page_whatever_its_place_in_the_list() -> None:
    legal = [*_placements(3 * PAGE), "end", "quick"]
    first, _ = menu(1, 4, legal)
    assert first[0].label == QUICK_LABEL
    assert resolve(legal, ButtonId.parse(first[0].custom_id).payload) == "quick"  # type: ignore[union-attr]
    later, _ = menu(1, 4, legal, page=1)
    assert QUICK_LABEL not in [c.label for c in later] and "quick" not in [c.label for c in later]


def test_quick_start_is_not_offered_where_the_game_does_not_offer_it() -> None:
    first, _ = menu(1, 4, [*_placements(5), "end"])
    assert QUICK_LABEL not in [c.label for c in first]
    # Nor inside a sub-menu: the quick start is one whole move, chosen from the top.
    inner, _ = menu(1, 4, [*_placements(5), "quick"], prefix="place")
    assert QUICK_LABEL not in [c.label for c in inner]


def test_a_games_own_label_for_its_quick_start_is_kept() -> None:
    first, _ = menu(1, 4, ["end", "quick"], labels={"quick": "Quick start: the dwarves' usual line"})
    assert first[0].label == "Quick start: the dwarves' usual line"


@pytest.fixture
async def host(db_target: str) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=db_target), renderer=None)
    yield h
    await h.close()


async def test_the_turn_notice_of_a_game_offering_quick_puts_quick_start_first(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game("ignis")
    plain = type(game).legal_actions

    def with_quick(self: Any, state: Any, seat: str) -> list[Any]:
        moves = plain(self, state, seat)
        return [*moves, "quick"] if moves else moves

    monkeypatch.setattr(type(game), "legal_actions", with_quick)
    await host.command(ALICE, "new", {"game": "ignis", "seed": "5"})
    await host.command(ALICE, "join", {"seat": "fire"})
    await host.command(BOB, "join", {})
    posts = [p for p in await host.command(ALICE, "start", {}) if p.to is None]
    labels = [c.label for c in posts[-1].choices]
    assert labels[0] == QUICK_LABEL, labels
    assert "quick" not in labels


@pytest.mark.parametrize(("game", "raw"), VARIANTS, ids=VARIANT_IDS)
async def test_a_turn_notice_in_setup_says_how_to_take_the_quick_start(
    host: Host, game: Game[Any, Any], raw: dict[str, str]
) -> None:
    """Where a game starts in its setup with the quick start offered, the first turn's notice
    says how to take it, in words (a game with private hands shows only "Choose my move"); once
    the setup is over, no notice says it."""
    options = game.validate_options(raw)
    state = game.setup(game.seat_names(options)[:2], options, 5)
    people = [ALICE, BOB]
    opened = " ".join(f"{k}={v}" for k, v in raw.items())
    await host.command(ALICE, "new", {"game": game.id, "seed": "5", "options": opened})
    for person, seat in zip(people, game.seat_names(options)[:2], strict=False):
        await host.command(person, "join", {"seat": seat})
    said = "\n".join(p.text for p in await host.command(ALICE, "start", {}) if p.to is None)
    offered = game.setting_up(state) and any(
        QUICK in (str(a) for a in game.legal_actions(state, s)) for s in game.to_act(state).seats
    )
    assert (QUICK_HINT in said) == offered, said[-400:]
