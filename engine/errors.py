"""Domain errors whose text is safe to show a player and says what is legal instead.

Every refusal the engine or host makes is one of these; the frontends turn them into private replies.
"""


class GameError(ValueError):
    """A refusal a person can read and act on. Never changes state."""


class UnknownGame(GameError):
    pass


class OptionError(GameError):
    pass


class NotationError(GameError):
    """The text does not parse as an action of this game."""


class IllegalAction(GameError):
    """The action parses but the rules forbid it now."""


class NotYourTurn(GameError):
    pass
