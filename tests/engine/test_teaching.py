"""Every game's `/game help` teaches: how to win and a turn in at most ten short lines, then its
commands, then its options in plain words; reading choices and stand-ins last under their own
labels; and none of our development words anywhere in it."""

from __future__ import annotations

import pkgutil
import re

import pytest

import bot
import engine
import games
import render
import storage
from engine import all_games
from engine.game import Game
from engine.teaching import HEADINGS, LINE_CHARS, OPENING_LINES, opening

GAMES = all_games()


def _module_names() -> set[str]:
    """Every module and package of ours whose name could not be an English word in a sentence
    (it has an underscore), plus the packages themselves written as paths or dotted names."""
    names = set()
    for pkg in (bot, engine, games, render, storage):
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names |= {part for part in m.name.split(".") if "_" in part}
    return names


MODULES = _module_names()
PACKAGES = r"\b(?:bot|engine|games|render|storage|tests)[./]\w"
# Our development words: the tracker's, our numbering of rule readings, source files and paths.
DEV_WORDS = re.compile(
    rf"\bissues?\b|\breading (?:number|no\.?|#)?\s*\d|\bR\d+\b|\w\.(?:py|json|txt)\b|{PACKAGES}|"
    r"\bstand-in core\b|\bTODO\b|\bgap\b",
    re.IGNORECASE,
)


def _allowed_identifiers(game: Game) -> set[str]:
    """Words with underscores a player may type: option names and seats."""
    seats = set()
    for o in game.options:
        seats.add(o.name)
    return seats


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_help_has_no_development_words(game: Game) -> None:
    text = game.rules_help()
    assert not DEV_WORDS.search(text), DEV_WORDS.search(text)
    stray = {w for w in re.findall(r"\b\w+_\w+\b", text)} - _allowed_identifiers(game)
    assert not stray & MODULES, stray & MODULES
    assert not stray, f"identifiers a player would not type: {stray}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_help_opens_with_how_to_win_and_a_turn_then_commands_options_readings_stand_ins(game: Game) -> None:
    t = game.teaching()
    first = opening(t)
    assert t.win and t.turn and t.commands
    assert len(first) <= OPENING_LINES
    assert all(0 < len(line) <= LINE_CHARS and "\n" not in line for line in first), first
    text = game.rules_help()
    at = [text.find(f"**{h}**") for h in HEADINGS]
    present = [(h, i) for h, i in zip(HEADINGS, at, strict=True) if i >= 0]
    assert [h for h, _ in present][:4] == list(HEADINGS[:4])
    assert [i for _, i in present] == sorted(i for _, i in present), present
    # Only the title comes before how to win; every option is explained after the commands.
    title, win, turn = text.split("\n\n")[:3]
    assert title.startswith(f"**{game.title}**") and "\n" not in title
    assert win.startswith("**How to win**") and turn.startswith("**A turn**")
    options_at = text.index(f"**{HEADINGS[3]}**")
    for o in game.options:
        assert text.find(f"`{o.name}`", options_at) > 0, o.name
        assert o.help.strip() and not DEV_WORDS.search(o.help)
    # What is read or written fresh is said after everything a newcomer needs, under its label.
    for heading, items in ((HEADINGS[4], tuple(t.readings.values())), (HEADINGS[5], t.stand_ins)):
        for item in items:
            at = text.index(f"**{heading}**")
            assert at > options_at and text.find(item, at) > at, item
