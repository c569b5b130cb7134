"""Domain errors whose text is safe to show a player and says what is legal instead.

Every refusal the engine or host makes is one of these; the frontends turn them into private replies.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.refusals import Form, form_sentence


class GameError(ValueError):
    """A refusal a person can read and act on. Never changes state."""


class UnknownGame(GameError):
    pass


class OptionError(GameError):
    pass


class NotationError(GameError):
    """The text does not parse as an action of this game: `reason` says why, and `forms` are the
    shapes of move the game reads, shown after it (the engine keeps, in a refusal, only the forms
    of moves legal now)."""

    def __init__(self, reason: str, forms: Sequence[Form] = ()) -> None:
        super().__init__(reason + form_sentence(forms))
        self.reason = reason
        self.forms = tuple(forms)


class IllegalAction(GameError):
    """The action parses but the rules forbid it now."""


class NotYourTurn(GameError):
    pass
