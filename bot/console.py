"""The local console: the same host and commands as Discord, typed as lines in a terminal.

`@alice #general /game new ignis layout:random` acts as alice in #general; pictures and files
are written to a folder; a script of such lines replays a whole game reproducibly.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot import metrics
from bot.commands import BY_NAME, GROUP_OF, GROUPS, typed
from bot.config import Settings
from bot.health import Listener, ListenError
from bot.host import Host
from bot.host.collector import freeze_loaded, thaw_loaded
from bot.menus import whole_number
from bot.posts import Caller, Post
from bot.text import console_user

USAGE = """Lines look like:  @user [#channel] /command [subcommand] [text] [name:value ...]
  @alice /game new ignis layout:random     @bob /game join     @alice /game start
  @alice /play earth a3 east               @bob /press 2       (press a numbered button)
  @alice /seat ai seat:water               @bob /vote undo
  /game help, /game moves, /game board ... as in Discord; `;` starts a comment;
  /wait 90m advances the console clock and runs reminders; /quit leaves."""


@dataclass
class ParsedLine:
    user: str
    channel: str
    command: str  # a group ("game", "seat", "vote") | "play" | "press" | "wait" | "quit" | "help"
    sub: str = ""
    args: dict[str, str] = field(default_factory=dict)


class ConsoleError(ValueError):
    pass


def parse_line(line: str, default_user: str) -> ParsedLine | None:
    """One console line, or None for a blank line or a `;` comment."""
    text = line.strip()
    if not text or text.startswith(";"):
        return None
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ConsoleError(f"Could not read that line ({exc}).") from None
    user, channel = default_user, "general"
    while words and words[0][:1] in "@#" and len(words[0]) > 1:
        word = words.pop(0)
        if word[0] == "@":
            user = word[1:]
        else:
            channel = word[1:]
    if not words or not words[0].startswith("/"):
        raise ConsoleError("A line needs a command such as /game or /play.\n" + USAGE)
    command = words.pop(0)[1:].lower()
    if command in ("quit", "exit", "help"):
        return ParsedLine(user, channel, command)
    if command == "wait":
        return ParsedLine(user, channel, command, args={"for": " ".join(words)})
    if command == "press":
        return ParsedLine(user, channel, command, args={"id": " ".join(words)})
    if command == "play":
        # The whole rest of the line is the move: moves may contain ':' (`choose target:c5`).
        move = " ".join(words)
        return ParsedLine(user, channel, command, args={"action": move.removeprefix("action:").strip()})
    groups = {g.name: g for g in GROUPS}
    if command not in groups:
        known = ", ".join(f"/{name}" for name in [*groups, "play", "press", "wait", "quit"])
        raise ConsoleError(f"Unknown command /{command}; commands: {known}.")
    subs = ", ".join(c.name for c in groups[command].commands)
    if not words:
        raise ConsoleError(f"/{command} needs a subcommand: {subs}.")
    sub = words.pop(0).lower()
    if GROUP_OF.get(sub) is not groups[command]:
        moved = f" It is {typed(sub)}." if sub in BY_NAME else ""
        raise ConsoleError(f"There is no /{command} {sub}.{moved} Subcommands of /{command}: {subs}.")
    params = BY_NAME[sub].params
    args: dict[str, str] = {}
    loose: list[str] = []
    for word in words:
        key, sep, value = word.partition(":")
        # `name:value` sets a parameter (or, for /game new, a game option); a square like a3 never has ':'.
        if sep and key and value and key.isidentifier():
            args[key.lower()] = value
        else:
            loose.append(word)
    if loose:
        positional = [p.name for p in params if p.name not in args]
        if not positional:
            raise ConsoleError(f"Unexpected text `{' '.join(loose)}`.")
        if len(positional) == 1:
            args[positional[0]] = " ".join(loose)
        else:
            for name, word in zip(positional, loose, strict=False):
                args[name] = word
            if len(loose) > len(positional):
                raise ConsoleError(f"Unexpected text `{' '.join(loose[len(positional) :])}`.")
    return ParsedLine(user, channel, command, sub, args)


class Console:
    """Drives a Host from lines; writes each post to `out` as text or JSON lines."""

    def __init__(
        self,
        host: Host,
        images_dir: Path,
        out: TextIO,
        *,
        as_json: bool = False,
        managers: Iterable[str] = (),
    ) -> None:
        self.host = host
        self.images_dir = images_dir
        self.out = out
        self.as_json = as_json
        self.managers = set(managers)
        self.user = "player1"
        self.offset = 0.0  # /wait moves the console's clock forward
        self._last_choices: dict[tuple[str, str], tuple[int, list[str]]] = {}
        self._posted = 0  # orders posts, so /press N uses the newest buttons
        self._last_key: dict[str, str] = {}  # channel -> append_key of its latest public post
        self._boards: list[tuple[str, str]] = []  # (channel, picture file) to tell the host of
        self._next_number: dict[str, int] = {}  # an attachment's name -> the last number it took
        real_clock = host.clock
        host.clock = lambda: real_clock() + self.offset

    async def run_line(self, line: str) -> bool:
        """Handle one line; False once the user asks to quit."""
        try:
            parsed = parse_line(line, self.user)
        except ConsoleError as exc:
            self._emit_note(str(exc))
            return True
        if parsed is None:
            return True
        self.user = parsed.user
        caller = Caller(
            parsed.user, parsed.user, parsed.channel, guild="console", is_manager=parsed.user in self.managers
        )
        if parsed.command in ("quit", "exit"):
            return False
        if parsed.command == "help":
            self._emit_note(USAGE)
            return True
        if parsed.command == "wait":
            try:
                self.offset += _duration(parsed.args["for"])
            except ConsoleError as exc:  # a bad duration is a typo to answer, not a reason to quit
                self._emit_note(str(exc))
                return True
            posts = await self.host.tick()
        elif parsed.command == "press":
            custom_id = parsed.args["id"]
            # The newest buttons this user can see here: their own private menu or the public post's.
            seen = [self._last_choices.get(k) for k in ((parsed.user, parsed.channel), ("", parsed.channel))]
            choices = max((c for c in seen if c), key=lambda c: c[0], default=(0, []))[1]
            if whole_number(custom_id):
                number = int(custom_id)
                if not 1 <= number <= len(choices):
                    self._emit_note(f"There is no button {number} here; the last post had {len(choices)}.")
                    return True
                custom_id = choices[number - 1]
            posts = await self.host.press(caller, custom_id)
        else:
            name = "play" if parsed.command == "play" else parsed.sub
            args = dict(parsed.args)
            if name == "replace":  # every console name is a user: the one named is found
                args["user_name"] = console_user(args.get("user", "")) or ""
            posts = await self.host.command(caller, name, args)
        # What follows the answer (a finished game's replay) comes after it, as on Discord.
        for post in [*posts, *await self.host.follow_up_posts()]:
            self.emit(post)
        # As the Discord frontend does with a message link: reminders point at the latest board.
        for channel, path in self._boards:
            await self.host.board_posted(channel, path)
        self._boards.clear()
        return True

    async def run_lines(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not await self.run_line(line):
                break

    def emit(self, post: Post) -> None:
        images = [self._write(a.filename, a.data) for a in post.images]
        if images and post.to is None:
            self._boards.append((post.channel, images[-1]))
        files = [self._write(a.filename, a.data) for a in post.files]
        key = (post.to or "", post.channel)
        if post.choices:
            self._posted += 1
            self._last_choices[key] = (self._posted, [c.custom_id for c in post.choices])
        mentions = " ".join(f"@{m}" for m in post.mentions)
        text = f"{mentions} {post.text}".strip() if mentions else post.text
        # As on Discord: a post keyed like the channel's latest public message is added to it.
        appended = bool(post.append_key) and self._last_key.get(post.channel) == post.append_key
        if post.to is None:
            self._last_key[post.channel] = post.append_key
        if self.as_json:
            record = {
                "channel": post.channel,
                "to": post.to,
                "text": text,
                "mentions": list(post.mentions),
                "appended": appended,
                "images": images,
                "files": files,
                "choices": [{"label": c.label, "id": c.custom_id} for c in post.choices],
            }
            self.out.write(json.dumps(record) + "\n")
        else:
            who = f"private to {post.to}" if post.to else "public"
            who += " (added to the message above)" if appended else ""
            self.out.write(f"[#{post.channel}] {who}:\n")
            for line in text.splitlines() or [""]:
                self.out.write(f"  {line}\n")
            for path in images:
                self.out.write(f"  image: {path}\n")
            for path in files:
                self.out.write(f"  file: {path}\n")
            if post.choices:
                buttons = "  ".join(f"[{i}] {c.label}" for i, c in enumerate(post.choices, 1))
                self.out.write(f"  buttons (/press N): {buttons}\n")
        self.out.flush()

    def _emit_note(self, text: str) -> None:
        if self.as_json:
            self.out.write(
                json.dumps(
                    {
                        "channel": None,
                        "to": self.user,
                        "text": text,
                        "mentions": [],
                        "appended": False,
                        "images": [],
                        "files": [],
                        "choices": [],
                    }
                )
                + "\n"
            )
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def _write(self, filename: str, data: bytes) -> str:
        """The attachment in a file of its own: as a Discord message keeps its attachments, a
        later post's file of the same name (`/game board` at the same move, every post's
        events.txt, an earlier run's pictures) never overwrites it; it is numbered instead."""
        self.images_dir.mkdir(parents=True, exist_ok=True)
        name = Path(filename)
        n = self._next_number.get(filename, 1)
        path = self.images_dir / filename
        while path.exists():
            n += 1
            path = self.images_dir / f"{name.stem}-{n}{name.suffix}"
        self._next_number[filename] = n
        path.write_bytes(data)
        return str(path)


def _duration(text: str) -> float:
    """`90m`, `2h`, `30s`, `1d` → seconds (a bare number is minutes)."""
    t = text.strip().lower() or "0"
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(t[-1])
    try:
        seconds = float(t[:-1]) * unit if unit else float(t) * 60
    except ValueError:
        seconds = math.nan
    # The clock only moves forward, by a real amount: nan, inf or a negative wait would break it.
    if not 0 <= seconds < math.inf:
        raise ConsoleError(f"/wait takes a duration like 90m, 2h or 1d, not `{text}`.")
    return seconds


async def run_console(
    settings: Settings,
    *,
    script: str | None = None,
    as_json: bool = False,
    managers: Iterable[str] = (),
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> None:
    # One person at a local terminal (or a script) is not spam: no rate limit here.
    host = await Host.open(dataclasses.replace(settings, rate_limit_per_minute=0), user_ref=console_user)
    # What the start loaded (every game's rules, the host) stays out of the collector's full passes.
    freeze_loaded()
    out = out or sys.stdout
    console = Console(host, Path(settings.images_dir), out, as_json=as_json, managers=managers)
    listener: Listener | None = None
    try:
        if settings.health_port is not None:
            # The same listener as on Discord, without a gateway to check (bot/health.py).
            listener = Listener(
                metrics.get(), {"database": host.database_problem}, refresh=host.refresh_metrics
            )
            try:
                await listener.start(settings.health_host, settings.health_port)
            except ListenError as exc:
                raise SystemExit(str(exc)) from None
        if script:
            await console.run_lines(Path(script).read_text(encoding="utf-8").splitlines())
            return
        source = stdin or sys.stdin
        interactive = source.isatty()
        if interactive and not as_json:
            out.write("Local console. " + USAGE + "\n")
        while True:
            if interactive:
                out.write("> ")
                out.flush()
            line = await asyncio.to_thread(source.readline)
            if not line:
                break
            if not await console.run_line(line):
                break
    finally:
        if listener is not None:
            await listener.close()
        await host.close()
        thaw_loaded()
