"""The host's shared words and limits: how moves are said, how long a post or a parameter may be,
how many posts one command may cause, and the content check run before serving anyone."""

from __future__ import annotations

import inspect
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.host import seating
from bot.posts import Attachment, Caller, Post
from bot.text import safe_name
from engine import Game, OptionError, Played, all_games
from storage import SessionRow

log = logging.getLogger("tablebot.host")

BOT_USER = "bot"
BOARD_KEY = "board:"  # meta key prefix: board:<channel> -> link to the latest board picture
TOO_FAST = "You are sending commands too fast; wait a minute and try again."
MAX_TEXT = 1900  # Discord allows 2000 characters; longer text goes into a file
# What one command or press may cause: messages per channel (a run of bot moves folds into fewer),
# and channels besides the caller's own (a notice to each of a user's games).
MAX_POSTS_PER_CHANNEL = 4
# Characters of one command parameter (Discord allows 6000); the longest a command needs is an
# Ignite market list, a few hundred.
MAX_ARG = 1000
MAX_OTHER_CHANNELS = 10


def private(caller: Caller, text: str) -> Post:
    """An answer only the caller sees."""
    return Post(caller.channel, text, to=caller.user_id)


def check_content(settings: Settings) -> None:
    """Validate every game's content before serving anyone: a malformed file stops the start
    with its name, entry and field, rather than failing in the middle of a game. Every problem is
    a ValueError of one line (engine.content's ContentError for the files themselves)."""
    root = Path(settings.content_dir) if settings.content_dir else None
    if root is not None and not root.is_dir():
        raise ValueError(
            f"CONTENT_DIR {root} is not a folder (it holds one folder per game, named by its id)."
        )
    if root is not None:
        _check_names(root, {g.id for g in all_games()}, "a folder per game, named by its id")
    for game in all_games():
        folder = root / game.id if root is not None else None
        if folder is not None and os.path.lexists(folder) and not folder.is_dir():
            raise ValueError(f"{folder} is not a folder (CONTENT_DIR holds one folder per game).")
        if folder is not None and folder.is_dir():
            _check_names(folder, shipped_content(game), f"the files of {game.title} it replaces")
        try:
            game.check_content(str(folder) if folder is not None and folder.is_dir() else None)
        except ValueError:
            raise
        except Exception as exc:  # a check of ours that failed on a file it was not written for
            log.exception("checking the content of %s failed", game.id)
            raise ValueError(
                f"the content of {game.id} could not be checked ({type(exc).__name__}: {exc})."
            ) from exc


def shipped_content(game: Game[Any, Any]) -> set[str]:
    """The names of a game's content files: those it ships in its package's `data` folder, which
    a group's own files of the same names replace."""
    data = Path(inspect.getfile(type(game))).parent / "data"
    return {p.name for p in data.iterdir() if p.is_file()} if data.is_dir() else set()


def _check_names(folder: Path, known: set[str], holds: str) -> None:
    """A misnamed file or folder (`unit.json`, `battle-lore/`) would be skipped without a word and
    the stand-ins served: every name in a content folder must be one the bot reads (hidden files,
    such as an editor's, aside)."""
    unknown = sorted(p.name for p in folder.iterdir() if not p.name.startswith(".") and p.name not in known)
    if unknown:
        raise ValueError(
            f"{folder} holds {', '.join(unknown)}, which the bot does not read: it holds {holds} "
            f"({', '.join(sorted(known)) or 'none'}). Rename or remove them."
        )


# Between a log row's public form of the move and the public events that followed it.
SAID_END = " — "


def said_of(played: Played, answered: bool = False) -> str:
    """The move as the table reads it after the mover's name: its notation when that names
    nothing hidden, else its public form ("plays a card face down"); an answer to a question the
    game asked "answers `keep`" (its log row says it answered: ActionRow.answered)."""
    notation = str(played.action)
    if played.public != notation:
        return played.public
    return f"{ANSWERS} `{notation}`" if answered else f"plays `{notation}`"


ANSWERS = "answers"


def said_in(summary: str) -> str:
    """The public form kept at the head of a log row's summary."""
    return summary.split(SAID_END, 1)[0]


def private_moves(game: Game[Any, Any], state: Any, seats: Sequence[str]) -> bool:
    """Whether any of these seats' legal moves names something the table may not see (its
    public form is not its notation): such moves go on each player's private menu, never on
    buttons under a public post."""
    return any(
        game.public_text(state, seat, action) != str(action)
        for seat in seats
        for action in game.legal_actions(state, seat)
    )


def matches(typed: Sequence[str], words: Sequence[str]) -> bool:
    """Each typed word starts some word of the move, in order: `e a3` finds `earth a3 east`."""
    i = 0
    for t in typed:
        while i < len(words) and not words[i].startswith(t):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def result_line(row: SessionRow, outcome: dict[str, Any], said: str = "") -> str:
    """The game's result and why. `said`: the text the line goes under; a reason already in it
    (a game's own last event: "Water wins: Fire has no token left …") is not said again."""
    reason = str(outcome.get("reason") or "").strip()
    if reason and reason.rstrip(".!").lower() in said.lower():
        reason = ""
    # Named as the channel names them: "water (the bot, easy)", not the bot's user name.
    winners = [seating.who(row, w) for w in outcome.get("winners", [])]
    if winners:
        result = f"{' and '.join(winners)} won."
    elif outcome.get("losers"):
        result = "the game is lost."
    else:
        result = "a draw."
    return f"**Game over** — {result} {_sentence(reason, row)}".strip()


def _sentence(reason: str, row: SessionRow) -> str:
    """A game's reason as a sentence of its own: games word it as a clause ("the last round
    ended…"), and it follows the result's full stop. A reason that opens with a player's name
    ("bob (water) resigned.") keeps the name as the player wrote it."""
    reason = reason.strip()
    if not reason:
        return ""
    if not any(reason.startswith(s.user_name) for s in row.seats):
        reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?" else reason + "."


def check_lengths(args: dict[str, str]) -> None:
    """Every parameter a user typed is read up to MAX_ARG characters; a longer one is refused
    whole (cut short, it could mean something its sender never wrote)."""
    for key, value in args.items():
        if len(value) > MAX_ARG:
            raise OptionError(
                f"`{safe_name(key)}` is {len(value)} characters long; at most {MAX_ARG} are read. "
                "Nothing was done."
            )


def bounded(posts: list[Post], here: str) -> list[Post]:
    """The posts one command causes, bounded whatever the command: at most MAX_POSTS_PER_CHANNEL
    messages for each audience of a channel (the oldest fold into one, its long text into a file)
    and at most MAX_OTHER_CHANNELS channels besides the caller's (the rest are dropped and logged)."""
    others = list(dict.fromkeys(p.channel for p in posts if p.channel != here))
    if len(others) > MAX_OTHER_CHANNELS:
        log.warning("one command posted to %d other channels; %d kept", len(others), MAX_OTHER_CHANNELS)
        allowed = {here, *others[:MAX_OTHER_CHANNELS]}
        posts = [p for p in posts if p.channel in allowed]
    out = list(posts)
    for channel, to in dict.fromkeys((p.channel, p.to) for p in posts):
        group = [p for p in out if p.channel == channel and p.to == to]
        if len(group) <= MAX_POSTS_PER_CHANNEL:
            continue
        fold = group[: len(group) - MAX_POSTS_PER_CHANNEL + 1]
        merged = Post(
            channel,
            "\n".join(p.text for p in fold if p.text),
            to=to,
            images=[a for p in fold for a in p.images],
            files=[a for p in fold for a in p.files],
            choices=next((p.choices for p in reversed(fold) if p.choices), []),
            placeholder=next((p.placeholder for p in reversed(fold) if p.choices), ""),
            mentions=list(dict.fromkeys(u for p in fold for u in p.mentions)),
        )
        at = next(i for i, p in enumerate(out) if p is fold[0])
        out = [p for p in out if not any(p is f for f in fold)]
        out.insert(at, fit(merged, "moves.txt"))
    return out


def when_label(until: float) -> str:
    """A date and time as a player reads it: Fri 4 Dec, 18:00 UTC."""
    return time.strftime("%a %-d %b, %H:%M UTC", time.gmtime(until))


def channel_link(channel: str) -> str:
    """A channel as a player can click it on Discord (#name on the console)."""
    return f"<#{channel}>" if channel.isdigit() else f"#{channel}"


def fit(post: Post, filename: str) -> Post:
    """Keep a post under Discord's text limit: long text moves into an attached file."""
    if len(post.text) <= MAX_TEXT:
        return post
    head = post.text[: MAX_TEXT - 60].rsplit("\n", 1)[0]
    post.files.append(Attachment(filename, post.text.encode()))
    post.text = head + f"\n… (the rest is in {filename})"
    return post
