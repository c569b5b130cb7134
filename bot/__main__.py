"""`python -m bot`: connect to Discord when a token is set, else start the local console.

`python -m bot console [--db PATH] [--images DIR] [--script FILE] [--json]` forces the console.
`python -m bot backup --to FILE` copies a running SQLite database.
`python -m bot --version` prints the installed version (from the release's git tag).
`python -m bot notice --text "…"` posts a maintenance notice in every open game (at the next tick).
`python -m bot block|unblock --user ID` (or `--server ID`) refuses, or again takes, their commands.
`python -m bot export-user --user ID [--to FILE]` writes everything stored about a person (JSON);
`python -m bot forget-user --user ID` forgets them (docs/privacy.md).
`python -m bot migrate --from sqlite:PATH --to postgresql://…` copies every game to PostgreSQL and
checks the copy (safe to run any number of times; the source is only read); a game that cannot be
copied is named, one line each, and the others are copied.

Before anything else the database is opened, migrated and verified: a file that cannot be used
stops the bot at once with one line saying which file, what is wrong and how to restore it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.config import Settings, load_settings
from bot.logs import setup_logging


def main(argv: list[str] | None = None) -> None:
    """Every command ends in one line on bad input: the checks below name what is wrong, and a
    file the system refuses (a folder where a file belongs, no permission, a full disk) is said
    in one line too, not as a traceback."""
    try:
        _main(argv)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise SystemExit(f"Stopped: {exc.strerror or exc}{where}.") from None


def _main(argv: list[str] | None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "mode",
        nargs="?",
        choices=["console", "discord", "backup", "migrate", *OPERATOR_COMMANDS],
        help="default: discord if a token is set",
    )
    parser.add_argument(
        "--db",
        help="SQLite file or postgresql:// URL (default: DATABASE_URL, TABLEBOT_DB or data/tablebot.sqlite3)",
    )
    parser.add_argument("--images", help="folder for pictures and files the console writes")
    parser.add_argument("--script", help="read console lines from this file, then exit")
    parser.add_argument("--json", action="store_true", help="one JSON object per post per line")
    parser.add_argument("--manager", action="append", default=[], help="console user with Manage Server")
    parser.add_argument(
        "--to",
        help="with backup: the file to write the copy to; with migrate: the target URL; "
        "with export-user: the JSON file to write",
    )
    parser.add_argument("--from", dest="source", help="with migrate: sqlite:PATH of the database to copy")
    parser.add_argument("--text", default="", help="with notice: what to tell every open game")
    parser.add_argument("--user", help="with block, unblock, export-user, forget-user: a user's id")
    parser.add_argument("--server", help="with block, unblock: a server's id")
    parser.add_argument("--why", default="", help="with block: the reason, kept with the block")
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")
    parser.add_argument("--version", action="version", version=f"tablebot {_installed_version()}")
    args = parser.parse_args(argv)

    settings = load_settings(args.env_file)
    if args.db:
        settings = dataclasses.replace(settings, db_path=args.db)
    if args.images:
        settings = dataclasses.replace(settings, images_dir=args.images)
    mode = args.mode or ("discord" if settings.token else "console")
    # Text or JSON lines; libraries that log whole payloads at DEBUG are kept quiet (bot/logs.py).
    level = settings.log_level or ("WARNING" if mode == "console" else "INFO")
    setup_logging(level, settings.log_format, token=settings.token)
    if mode == "migrate":
        _migrate(args.source, args.to, settings)
        return
    _check_paths(args, mode)
    _check_database_or_exit(settings.db_path)
    if mode in OPERATOR_COMMANDS:
        with _database_errors_as_one_line():
            print(asyncio.run(_operate(mode, args, settings)))
        return
    if mode == "backup":
        with _database_errors_as_one_line():
            asyncio.run(_backup(settings.db_path, args.to))
        print(f"Backed up {settings.db_path} to {args.to}.")
        return
    if mode == "discord":
        if not settings.token:
            raise SystemExit("DISCORD_TOKEN is not set (see .env.example); cannot connect to Discord.")
        from bot.discord_frontend import run_discord
        from bot.host import check_content

        _check_content_or_exit(check_content, settings)
        with _database_errors_as_one_line():
            run_discord(settings)
        return
    if args.mode is None:
        print(
            "No DISCORD_TOKEN is set (see .env.example), so the local console starts instead: "
            "play with lines like `@alice /game new ignis`.",
            file=sys.stderr,
        )
    from bot.console import run_console
    from bot.host import check_content

    _check_content_or_exit(check_content, settings)
    with _database_errors_as_one_line():
        asyncio.run(run_console(settings, script=args.script, as_json=args.json, managers=args.manager))


def _installed_version() -> str:
    """The installed distribution's version; a checkout run without `pip install` has none."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tablebot")
    except PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


OPERATOR_COMMANDS = ("notice", "block", "unblock", "export-user", "forget-user")


async def _operate(mode: str, args: argparse.Namespace, settings: Settings) -> str:
    """One operator's command on the database; bad input ends in one line."""
    from bot.host import Host
    from bot.host.blocks import IDENT, set_block
    from engine import GameError

    if mode in ("export-user", "forget-user") and (not args.user or IDENT.fullmatch(args.user) is None):
        raise SystemExit(f"{mode} needs --user ID (the person's Discord id)")
    host = await Host.open(settings, renderer=None)
    try:
        if mode == "notice":
            return await host.notices.from_operator(args.text)
        if mode == "forget-user":
            return await host.privacy.forget(args.user)
        if mode == "export-user":
            return _exported(await host.privacy.export(args.user), args.user, args.to)
        kind = "server" if args.server and not args.user else "user"
        ident = args.server if kind == "server" else args.user
        return await set_block(host.repo, kind, ident, args.why, blocked=mode == "block")
    except GameError as exc:
        raise SystemExit(str(exc)) from None
    finally:
        await host.close()


def _exported(data: dict[str, object], user: str, to: str | None) -> str:
    """A person's data as JSON: to the file `to`, else the text to print."""
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False)
    if not to:
        return text
    Path(to).write_text(text + "\n", encoding="utf-8")
    return f"Wrote everything stored about {user} to {to}."


def _check_paths(args: argparse.Namespace, mode: str) -> None:
    """The files and folders named on the command line, checked before anything is opened."""
    if mode == "backup":
        example = "backups/tablebot-2026-11-29.sqlite3"
        if not args.to:
            raise SystemExit(f"backup needs --to FILE (e.g. --to {example})")
        if Path(args.to).is_dir():
            raise SystemExit(
                f"backup --to names the file to write, and {args.to} is a folder (e.g. --to {example})."
            )
        if args.db and Path(args.to).resolve() == Path(args.db).resolve():
            raise SystemExit("backup --to names the live database itself; name a new file.")
    if mode == "export-user" and args.to and Path(args.to).is_dir():
        raise SystemExit(f"export-user --to names the file to write, and {args.to} is a folder.")
    if mode == "console":
        if args.script and (not Path(args.script).exists() or Path(args.script).is_dir()):
            raise SystemExit(f"--script {args.script} is not a file of console lines.")
        if args.images and Path(args.images).exists() and not Path(args.images).is_dir():
            raise SystemExit(f"--images {args.images} is not a folder.")


def _check_database_or_exit(target: str) -> None:
    """Open, migrate and verify the database (PRAGMA quick_check on SQLite), then close it; on any
    problem exit at once with the one line that names the file, the fault and the remedy. Every
    connection and its thread are closed first, so the process never lingers."""
    from storage import Repository

    with _database_errors_as_one_line():
        asyncio.run(Repository.check(target))


@contextlib.contextmanager
def _database_errors_as_one_line() -> Iterator[None]:
    from storage import DatabaseUnusable

    try:
        yield
    except DatabaseUnusable as exc:
        raise SystemExit(exc.line) from None


def _migrate(source: str | None, target: str | None, settings: Settings) -> None:
    """Copy and check every game; exit 1 with one line per game that could not be copied."""
    if not source or not target:
        raise SystemExit("migrate needs --from sqlite:PATH and --to postgresql://USER@HOST/DB")
    from bot.host import check_content
    from bot.replay_check import replay_check
    from engine import all_games
    from storage.transfer import TransferError, transfer

    # The games are replayed with the content they were played with: the group's own (CONTENT_DIR).
    _check_content_or_exit(check_content, settings)

    def progress(line: str) -> None:
        print(line, file=sys.stderr)

    with _database_errors_as_one_line():
        try:
            games = [g.id for g in all_games()]
            report = asyncio.run(
                transfer(source, target, replay=replay_check, games=games, progress=progress)
            )
        except TransferError as exc:
            raise SystemExit(f"Migration stopped: {exc}") from None
    print(report)
    if report.failed:
        raise SystemExit("\n".join(report.failed))


def _check_content_or_exit(check: Callable[[Settings], None], settings: Settings) -> None:
    try:
        check(settings)
    except ValueError as exc:  # content errors name the file, the entry and the field
        raise SystemExit(f"Cannot start: a content file is malformed: {exc}") from None


async def _backup(source: str, dest: str) -> None:
    from storage import Repository
    from storage.errors import BackupFailed

    repo = await Repository.open(source)
    try:
        await repo.backup(dest)
    except BackupFailed as exc:
        raise SystemExit(str(exc)) from None
    finally:
        await repo.close()


if __name__ == "__main__":
    main()
