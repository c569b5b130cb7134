"""An option whose value is a list (Ignite's custom market) is typed as players would type it:
commas between the names, spaces inside them or after the commas."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.host import Host
from bot.host.lobby import parse_options
from bot.posts import Caller
from bot.text import console_user
from games.ignite.content import load_content

ANN = Caller("ann", "ann", "table", guild="g1")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    settings = Settings(db_path=str(tmp_path / "o.sqlite3"), rate_limit_per_minute=0)
    h = await Host.open(settings, user_ref=console_user)
    yield h
    await h.close()


def test_a_list_value_keeps_its_commas_and_the_spaces_inside_its_names() -> None:
    assert parse_options("market=fire arrow, unicorn,flail pace=async") == {
        "market": "fire arrow,unicorn,flail",
        "pace": "async",
    }
    assert parse_options("layout=random,first:random") == {"layout": "random", "first": "random"}


async def test_a_custom_market_of_three_decks_is_refused_for_its_size_not_its_commas(host: Host) -> None:
    refused = await host.command(ANN, "new", {"game": "ignite", "options": "market=arrow,unicorn,flail"})
    assert refused[0].to == "ann"
    assert "16" in refused[0].text and "market_size=any" in refused[0].text, refused[0].text
    assert await host.repo.open_session_in("table") is None


async def test_a_custom_market_of_sixteen_decks_opens_the_game(host: Host) -> None:
    content = load_content()
    decks = [d for d in sorted(content.buyable()) if d not in content.market.exclude][:16]
    opened = await host.command(ANN, "new", {"game": "ignite", "options": "market=" + ", ".join(decks)})
    assert opened[0].to is None, opened[0].text
    row = await host.repo.open_session_in("table")
    assert row is not None and row.options["market"].split(",") == decks
