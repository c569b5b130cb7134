"""What the host hands back to a frontend: posts to make, each public or private to one user.

Frontends turn these into Discord messages or console lines; the host never knows which.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Caller:
    """Who sent a command, and where. Ids are strings so Discord snowflakes and console names fit."""

    user_id: str
    name: str
    channel: str
    guild: str | None = None
    is_manager: bool = False  # holds Manage Server in this guild
    roles: tuple[str, ...] = ()  # the member's role ids in this guild (the server's moderator role)
    parent: str | None = None  # in a thread: the channel it belongs to (where games may be opened)
    arrived: int | None = None  # set by the host as the command arrives (Repository.tick)


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    # Alt text, read out by screen readers (Discord's attachment description, up to 1,024 characters).
    description: str = ""


# A frontend shows up to this many choices as buttons (Discord: five action rows of five), more
# as select menus: a button added beside a post's moves must not turn its buttons into menus.
MAX_BUTTONS = 25


@dataclass(frozen=True)
class Choice:
    """A button (or a select-menu entry when there are many): pressing it sends `custom_id` back."""

    label: str
    custom_id: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass
class Post:
    channel: str
    text: str
    to: str | None = None  # None: public; else the user id who alone sees it (ephemeral)
    images: list[Attachment] = field(default_factory=list)
    files: list[Attachment] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # user ids to ping
    # A select menu is used instead of buttons when there are more choices than fit as buttons.
    placeholder: str = ""
    # A player's turn is one message: a post with the key of the channel's latest message is added
    # to it (an edit, which pings nobody) instead of starting a new one.
    append_key: str = ""

    @property
    def private(self) -> bool:
        return self.to is not None
