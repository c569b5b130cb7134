"""The command set shared by every frontend: groups, names, parameters and help text.

The console parses lines against it and the Discord frontend declares its slash commands from the
same names, so a command means the same thing wherever it is typed. Commands come in groups
(`/game new`, `/seat ai`, `/vote undo`): Discord allows 25 subcommands under one command, and each
group keeps room for more. A subcommand's name is unique across the groups, so the host knows a
command by its name alone.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    name: str
    help: str
    required: bool = False


@dataclass(frozen=True)
class Command:
    name: str  # "new", "join", ... under a group; "play" is its own top-level command
    help: str
    params: tuple[Param, ...] = ()
    # Slow commands (rendering, AI moves) are deferred by the Discord frontend before the host runs.
    slow: bool = False
    # Acting commands can move a game on, so the buttons on its older messages go stale (the
    # frontend removes them once the answer is shown).
    acting: bool = False


GAME_COMMANDS: tuple[Command, ...] = (  # the table: open, seat, look, close
    Command(
        "new",
        "Open a game in this channel",
        (
            Param("game", "Which game (see /game help)", required=True),
            Param("options", "Game options as name=value pairs, e.g. `layout=random first=random`"),
            Param("seed", "A number that fixes every die and shuffle (for replays)"),
            Param("seat", "The seat you take at once (optional)"),
            Param("thread", "yes: open the game in its own thread"),
        ),
    ),
    Command(
        "join",
        "Take a seat in the open game, or take your seat back from the bot",
        (Param("seat", "A seat name (optional)"),),
    ),
    Command(
        "leave",
        "Leave your seat before the game starts (or take the bot out of its seat)",
        (Param("seat", "Which seat to free: one of yours, or the bot's"),),
    ),
    Command("start", "Start the game once the seats are filled", slow=True, acting=True),
    Command("status", "Who is seated, whose turn, what is pending"),
    Command(
        "board",
        "A fresh picture of the board, with your move controls",
        (
            Param("format", "picture (default) or text (for screen readers)"),
            Param("sight", "An area number: shade what it cannot see (Dire Alliance)"),
        ),
        slow=True,
    ),
    Command(
        "log", "The latest moves (undone ones marked)", (Param("page", "1 is the latest moves, 2 older"),)
    ),
    Command("recap", "What happened since your last move, privately, with the board marked", slow=True),
    Command(
        "replay",
        "The game as an animated picture, one frame per turn",
        (Param("from", "The turn to start from (0 is the start)"),),
        slow=True,
    ),
    Command("moves", "Your legal moves, privately, one per line"),
    Command("hand", "Your private view (hand, cards), shown only to you"),
    Command(
        "card",
        "A card's whole text, or what a word of the game means (a status, terrain, marker...)",
        (
            Param("name", "The card or word (autocomplete lists them)", required=True),
            Param("game", "Which game (when none is played in this channel)"),
        ),
    ),
    Command("market", "What can be bought now, with costs and texts"),
    Command("help", "How to play, per game", (Param("game", "Which game"),)),
    Command(
        "export",
        "Download the game as JSON (moves, options, seed, result)",
        (Param("replay", "yes: add the animated replay"),),
        slow=True,
    ),
    Command("mine", "Your open games in this server: whose turn, since when, where"),
    Command(
        "stats", "Results per game: wins, losses, co-op results, time per turn", (Param("user", "@someone"),)
    ),
    Command(
        "settings",
        "Server settings (Manage Server), or the options a co-op game lets its players change in play",
        (Param("name", "Setting or option name"), Param("value", "New value")),
    ),
    Command("rematch", "Open a new game here with the same seats and options (and a new seed)"),
    Command(
        "abandon",
        "Close the game without a result (opener or Manage Server; with other players, the opener resigns)",
        acting=True,
    ),
)

SEAT_COMMANDS: tuple[Command, ...] = (  # who plays a seat of a running game
    Command(
        "ai",
        "Seat the bot (lobby), or let it play a seat silent past takeover_hours (running game)",
        (Param("seat", "Which seat the bot takes", required=True), Param("level", "easy, medium or hard")),
    ),
    Command(
        "away",
        "Silence every ping to you for some days; one post names your games",
        (Param("days", "0 to 30"),),
    ),
    Command(
        "replace",
        "Hand a seat to someone who agrees: yours, the opener's in a lobby, or with its player's consent",
        (
            Param("seat", "Which seat", required=True),
            Param(
                "user",
                "Who takes it: a member of this server, as an @mention or their user id",
                required=True,
            ),
        ),
    ),
    Command(
        "claim",
        "Two players: claim the win, or a draw, when your opponent is silent past takeover_hours",
        (Param("result", "win or draw", required=True),),
        slow=True,
    ),
)

VOTE_COMMANDS: tuple[Command, ...] = (  # what the other seats may have to agree to
    Command(
        "undo",
        "Take back the last move (or vote for it when dice or cards were revealed)",
        slow=True,
        acting=True,
    ),
    Command(
        "resign", "Resign (two players: the opponent wins; co-op: the group concedes)", slow=True, acting=True
    ),
)

PRIVACY_COMMANDS: tuple[Command, ...] = (  # a person's own data (docs/privacy.md)
    Command("mydata", "A private file of everything the bot stores about you", slow=True),
    Command(
        "forgetme",
        "The bot forgets you: seats handed on, your name and id gone from every game",
        (Param("confirm", "yes: forget me now (it cannot be undone)"),),
        slow=True,
    ),
)

OPERATOR_COMMANDS: tuple[Command, ...] = (  # the bot's operator (OPERATOR_IDS) only
    Command(
        "notice",
        "Post a notice in every open game, in every server (the bot's operator only)",
        (Param("text", "What to tell every table, e.g. a restart for maintenance", required=True),),
    ),
    Command(
        "block",
        "Refuse a user's or a server's commands (the bot's operator only)",
        (
            Param("user", "@someone or a user id"),
            Param("server", "A server's id"),
            Param("why", "The reason, kept with the block"),
        ),
    ),
    Command(
        "unblock",
        "Take a user's or a server's commands again (the bot's operator only)",
        (Param("user", "@someone or a user id"), Param("server", "A server's id")),
    ),
)

PLAY = Command(
    "play",
    "Make a move (autocomplete lists your legal moves)",
    (Param("action", "Your move", required=True),),
    slow=True,
    acting=True,
)


@dataclass(frozen=True)
class Group:
    """A top-level slash command whose subcommands are Commands: `/seat ai`."""

    name: str
    help: str
    commands: tuple[Command, ...]
    # Shown in a server's command list only to its administrators (Discord's
    # default_member_permissions): the operator's commands, which everyone else is refused anyway.
    admins_see: bool = False


# Discord allows 25 subcommands under one command; every group leaves at least ROOM of them free.
SUBCOMMAND_LIMIT = 25
ROOM = 5

GROUPS: tuple[Group, ...] = (
    Group("game", "Host a tabletop game in this channel", GAME_COMMANDS),
    Group("seat", "Who plays a seat: the bot, time away, a new player, a claim", SEAT_COMMANDS),
    Group("vote", "Take back a move, or resign (the other seats may have to agree)", VOTE_COMMANDS),
    Group("privacy", "What the bot stores about you: a copy of it, or forget you", PRIVACY_COMMANDS),
    Group(
        "operator", "The bot's operator: a notice to every game, blocks", OPERATOR_COMMANDS, admins_see=True
    ),
)

BY_NAME: dict[str, Command] = {c.name: c for g in GROUPS for c in g.commands}
GROUP_OF: dict[str, Group] = {c.name: g for g in GROUPS for c in g.commands}
ACTING: frozenset[str] = frozenset(c.name for c in (PLAY, *BY_NAME.values()) if c.acting)


def typed(name: str) -> str:
    """How a player types a command: `/seat ai`, `/game new`, `/play`."""
    return f"/{name}" if name == PLAY.name else f"/{GROUP_OF[name].name} {name}"
