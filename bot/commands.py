"""The command set shared by every frontend: names, parameters and help text.

The console parses lines against it and the Discord frontend declares its slash commands from the
same names, so a command means the same thing wherever it is typed.
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
    name: str  # "new", "join", ... under /game; "play" is its own top-level command
    help: str
    params: tuple[Param, ...] = ()
    # Slow commands (rendering, AI moves) are deferred by the Discord frontend before the host runs.
    slow: bool = False


GAME_COMMANDS: tuple[Command, ...] = (
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
    Command(
        "ai",
        "Seat the bot (lobby), or let it play a seat silent past takeover_hours (running game)",
        (Param("seat", "Which seat the bot takes", required=True), Param("level", "easy, medium or hard")),
    ),
    Command("start", "Start the game once the seats are filled", slow=True),
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
    Command("moves", "Your legal moves, privately, one per line"),
    Command("hand", "Your private view (hand, cards), shown only to you"),
    Command("undo", "Take back the last move (or vote for it when dice or cards were revealed)", slow=True),
    Command("resign", "Resign (two players: the opponent wins; co-op: the group concedes)", slow=True),
    Command("abandon", "Close the game without a result (host or Manage Server only)"),
    Command(
        "export",
        "Download the game as JSON (moves, options, seed, result)",
        (Param("replay", "yes: add the animated replay"),),
        slow=True,
    ),
    Command(
        "claim",
        "Two players: claim the win, or a draw, when your opponent is silent past takeover_hours",
        (Param("result", "win or draw", required=True),),
        slow=True,
    ),
    Command(
        "replace",
        "Hand a seat to someone else (the seat's player or the game's opener)",
        (Param("seat", "Which seat", required=True), Param("user", "Who takes it (@mention)", required=True)),
    ),
    Command("away", "Pause your turn pings for some days; your games say so", (Param("days", "0 to 30"),)),
    Command("rematch", "Open a new game here with the same seats and options (and a new seed)"),
    Command("mine", "Your open games in this server: whose turn, since when, where"),
    Command(
        "stats", "Results per game: wins, losses, co-op results, time per turn", (Param("user", "@someone"),)
    ),
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
        "settings",
        "Server settings: reminder_hours, decision_minutes, takeover_hours, lobby_seats (Manage Server)",
        (Param("name", "Setting name"), Param("value", "New value")),
    ),
)

PLAY = Command(
    "play",
    "Make a move (autocomplete lists your legal moves)",
    (Param("action", "Your move", required=True),),
    slow=True,
)

# Catching up and looking back. The console and the host know them now; Discord allows 25
# subcommands under /game, which GAME_COMMANDS fills, so they join it there once the commands
# are split into groups.
CATCH_UP_COMMANDS: tuple[Command, ...] = (
    Command("recap", "What happened since your last move, privately, with the board marked", slow=True),
    Command(
        "replay",
        "The game as an animated picture, one frame per turn",
        (Param("from", "The turn to start from (0 is the start)"),),
        slow=True,
    ),
)

BY_NAME: dict[str, Command] = {c.name: c for c in (*GAME_COMMANDS, *CATCH_UP_COMMANDS)}
