"""What a game's package must provide beyond what `engine.Game`'s abstract methods force, as
protocols mypy checks and the conformance test holds every package under games/ to
(tests/test_conformance.py).

A game is a package games/<name>/ whose `__init__` registers one `Game` and exports it as `GAME`
(`GamePackage`). Its class sets what the base class cannot require of it (`Introduced`): a one-line
`blurb` for `/game help`, and `terms`, its glossary module (a `Terms`: `vocabulary()` and
`glossary()`), which every rules word a player reads must have an entry in. Each package declares
this at its end, under TYPE_CHECKING, so that mypy holds it to the protocol.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.game import Terms


@runtime_checkable
class Introduced(Protocol):
    """What a game's class sets for players to meet it by: its id, title, blurb and terms."""

    @property
    def id(self) -> str:
        """The game's id: lower-case words joined by hyphens; its package is the id with underscores."""

    @property
    def title(self) -> str:
        """The game's name as players know it."""

    @property
    def blurb(self) -> str:
        """One line for `/game help`: what the game is."""

    @property
    def terms(self) -> Terms:
        """The game's glossary module: every term a player meets, explained."""


@runtime_checkable
class GamePackage(Protocol):
    """games/<name>/__init__.py: importing it registers the game, which it exports as GAME."""

    @property
    def GAME(self) -> Introduced:
        """The game the package registered."""
