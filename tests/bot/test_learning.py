"""Learning a game from inside the chat: `/game help` teaches in full (not squeezed into a file),
`/game card` explains any word of the channel's game or of a game named, and its autocomplete
offers every card and word."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.discord_views import MAX_TEXT_PARTS, split_post
from bot.host import Host
from bot.posts import Caller
from engine import all_games, get_game

ALICE = Caller("alice", "alice", "table", guild="g1")


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    h = await Host.open(Settings(db_path=str(tmp_path / "l.sqlite3"), rate_limit_per_minute=0))
    yield h
    await h.close()


async def test_help_is_the_whole_lesson_how_to_win_first(host: Host) -> None:
    lesson, notes = await host.command(ALICE, "help", {"game": "ignite"})
    assert {lesson.to, notes.to} == {"alice"} and not lesson.files and not notes.files
    assert f"{lesson.text}\n\n{notes.text}" == get_game("ignite").rules_help()
    assert lesson.text.split("\n\n")[1].startswith("**How to win**")
    assert notes.text.startswith("**Reading choices**")


@pytest.mark.parametrize("game", [g.id for g in all_games()])
async def test_help_reads_in_the_chat_never_as_a_file(host: Host, game: str) -> None:
    posts = await host.command(ALICE, "help", {"game": game})
    for post in posts:
        parts = split_post(post)
        assert len(parts) <= MAX_TEXT_PARTS and not any(p.attachments for p in parts), len(post.text)


async def test_card_explains_a_word_of_a_game_named_where_none_is_played(host: Host) -> None:
    [post] = await host.command(ALICE, "card", {"name": "hoard", "game": "battlelore"})
    assert post.to == "alice" and post.text.startswith("**hoard** (marker)")
    [refused] = await host.command(ALICE, "card", {"name": "hoard"})
    assert "game:<id>" in refused.text and refused.to == "alice"


async def test_card_explains_a_word_of_the_channels_game_and_says_what_is_close(host: Host) -> None:
    await host.command(ALICE, "new", {"game": "dire-alliance", "seed": "3"})
    [post] = await host.command(ALICE, "card", {"name": "Stunned"})
    assert post.text.startswith("**stunned** (status)")
    [refused] = await host.command(ALICE, "card", {"name": "stuned"})
    assert "no card or word `stuned`" in refused.text and "stunned" in refused.text


async def test_card_autocomplete_offers_the_games_cards_and_words(host: Host) -> None:
    names = await host.card_choices(ALICE, "gre", "ignite")
    assert names[0] == "green" and len(names) <= 25
    await host.command(ALICE, "new", {"game": "battlelore", "seed": "3"})
    assert "inferno" in await host.card_choices(ALICE, "infer")
    assert "Citadel Guard" in await host.card_choices(ALICE, "citadel")
    everything = await host.card_choices(ALICE, "", "")
    assert len(everything) == 25
