"""What a game's picture module must define, as protocols mypy checks and the conformance test holds
every registered game's picture to (tests/test_conformance.py).

A picture is render/<game id>.py (or a package of that name, hyphens as underscores). Every picture
is a `Picture`; then either it reads whole on a phone and says so (`ReadsWhole`: the smallest text
it draws is big enough at phone width), or each of its posts carries a close-up (`ClosesUp`: where
the action is, the side panel's boxes and the key to what a part of the picture shows). Each module
declares which at its end, under TYPE_CHECKING, so that mypy holds it to the protocol it names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from render.kit import Box, LegendSymbol, Point


@runtime_checkable
class Picture(Protocol):
    """Every board picture: a pure function of a view, its size, and the words of its legend."""

    @property
    def SIZE(self) -> tuple[int, int]:
        """The picture's width and height in pixels."""

    def render(self, view: Mapping[str, Any], names: Mapping[str, str], /) -> bytes:
        """The board drawn from `view` (seat names in `names`), as PNG."""

    def legend(self, view: Mapping[str, Any], /) -> list[str]:
        """The word of every symbol the picture of this view draws: each has a glossary entry."""


@runtime_checkable
class ReadsWhole(Picture, Protocol):
    """A picture whose every text reads at phone width (render.LEGIBLE pixels high there)."""

    @property
    def SMALLEST_TEXT(self) -> int:
        """The smallest text it draws, in its own pixels."""


@runtime_checkable
class ClosesUp(Picture, Protocol):
    """A picture too wide to read whole on a phone: its posts carry a close-up (render.close_up).
    A key strip under the map may also be named by `LEGEND_Y` (the close-up's spot stays above
    it); without it the spot may reach the picture's foot."""

    @property
    def PANEL(self) -> Sequence[tuple[int, int, int, int]]:
        """The side panel's boxes, each shown whole in the close-up, under the spot."""

    @property
    def PANEL_TEXT(self) -> int:
        """The smallest text the panel draws, in the picture's pixels."""

    def focus(self, view: Mapping[str, Any], /) -> Point | None:
        """Where the action is, for the close-up's spot; None where there is none."""

    def close_up_key(self, view: Mapping[str, Any], box: Box | None, /) -> list[tuple[LegendSymbol, str]]:
        """The legend's symbols seen in the spot `box` and the panel, for the close-up's own key."""
