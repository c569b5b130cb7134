"""The command set: groups with room to grow, every command a player is told of exists, and the table
is the one place a command is named: the host answers each of its commands, the frontend reads
which move a game on from it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.commands import ACTING, BY_NAME, GROUPS, PLAY, ROOM, SUBCOMMAND_LIMIT, typed
from bot.config import Settings
from bot.host import Host
from bot.posts import Caller
from storage import Repository

ROOT = Path(__file__).resolve().parents[2]
# A command as a player reads it: `/seat ai`, `/game new` (a group name, then a word).
MENTION = re.compile(r"/(" + "|".join(g.name for g in GROUPS) + r") ([a-z]+)\b")


def test_every_group_leaves_room_under_discords_subcommand_limit() -> None:
    for group in GROUPS:
        assert len(group.commands) <= SUBCOMMAND_LIMIT - ROOM, group.name


def test_a_subcommand_name_belongs_to_one_group_only() -> None:
    names = [c.name for g in GROUPS for c in g.commands]
    assert len(names) == len(set(names)) == len(BY_NAME)
    assert PLAY.name not in BY_NAME and PLAY.name not in {g.name for g in GROUPS}


def test_typed_names_the_group() -> None:
    shown = [typed(n) for n in ("new", "ai", "undo", "play")]
    assert shown == ["/game new", "/seat ai", "/vote undo", "/play"]


def test_every_command_named_in_player_text_and_the_readme_exists() -> None:
    """Texts the bot shows (bot/, engine/, games/), the README and docs/ name commands as
    `/group sub`; each must be a real subcommand of that group, so a moved command leaves no stale
    instruction behind."""
    code = [p for d in ("bot", "engine", "games") for p in (ROOT / d).rglob("*.py")]
    sources = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *code]
    wrong = []
    for path in sources:
        for m in MENTION.finditer(path.read_text(encoding="utf-8")):
            group, sub = m.groups()
            if sub in BY_NAME and typed(sub) != f"/{group} {sub}":
                wrong.append(f"{path.relative_to(ROOT)}: /{group} {sub} (it is {typed(sub)})")
            elif sub not in BY_NAME and group != "game":
                wrong.append(f"{path.relative_to(ROOT)}: /{group} {sub} (no such command)")
    assert not wrong, wrong


async def test_the_host_answers_every_command_of_the_table_and_no_other(tmp_path: Path) -> None:
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), rate_limit_per_minute=0)
    host = Host(await Repository.open(settings.db_path), settings, renderer=None)
    caller = Caller("u1", "ann", "t")
    try:
        for name in (PLAY.name, *BY_NAME):
            answers = await host.command(caller, name, {})
            assert not any("There is no command" in p.text for p in answers), name
        answers = await host.command(caller, "surrender", {})
        assert any("There is no command `surrender`" in p.text for p in answers)
    finally:
        await host.close()


def test_the_commands_that_move_a_game_on_are_marked_in_the_table() -> None:
    """The frontend clears stale buttons after these (bot.discord_frontend reads ACTING)."""
    assert {"play", "start", "undo", "resign", "abandon"} <= ACTING
    assert not ACTING & {"status", "board", "help", "replay", "recap", "moves"}
