"""The local console: line parsing, scripts that play whole games, JSON output, resuming."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import ConsoleError, parse_line, run_console
from engine import Dice, get_game

ROOT = Path(__file__).resolve().parents[2]


def test_line_names_user_channel_command_and_options() -> None:
    p = parse_line("@alice #den /game new ignis layout:random seed:4", "x")
    assert p is not None
    assert (p.user, p.channel, p.command, p.sub) == ("alice", "den", "game", "new")
    assert p.args == {"game": "ignis", "layout": "random", "seed": "4"}


def test_play_takes_the_rest_of_the_line_as_the_move() -> None:
    p = parse_line("@bob /play earth a3 east", "x")
    assert p is not None and p.channel == "general" and p.args == {"action": "earth a3 east"}


def test_comments_and_blank_lines_are_skipped() -> None:
    assert parse_line("; a comment", "x") is None
    assert parse_line("   ", "x") is None


def test_seat_and_vote_commands_parse_under_their_groups() -> None:
    p = parse_line("@alice /seat ai seat:water level:easy", "x")
    assert p is not None and (p.command, p.sub, p.args) == ("seat", "ai", {"seat": "water", "level": "easy"})
    p = parse_line("@bob /vote undo", "x")
    assert p is not None and (p.command, p.sub) == ("vote", "undo")


def test_a_command_typed_under_the_wrong_group_names_its_group() -> None:
    with pytest.raises(ConsoleError, match="It is /seat ai"):
        parse_line("@alice /game ai seat:water", "x")
    with pytest.raises(ConsoleError, match="It is /game new"):
        parse_line("@alice /vote new ignis", "x")


@pytest.mark.parametrize(
    "line", ["@alice hello", "/game", "/game fly", "/seat", "/vote fly", "/dance", "@a /game new 'unclosed"]
)
def test_malformed_lines_say_what_a_line_looks_like(line: str) -> None:
    with pytest.raises(ConsoleError):
        parse_line(line, "x")


def _script_for_a_whole_game(seed: int) -> list[str]:
    """Play Ignis with seeded random moves in the engine, and write the console lines for it."""
    game = get_game("ignis")
    state = game.setup(["fire", "water"], game.validate_options({}), seed)
    lines = [
        f"@alice /game new ignis seed:{seed}",
        "@alice /game join fire",
        "@bob /game join",
        "@alice /game start",
    ]
    dice = Dice(seed)
    users = {"fire": "alice", "water": "bob"}
    while game.outcome(state) is None:
        seat = next(iter(game.to_act(state).seats))
        legal = game.legal_actions(state, seat)
        move = str(legal[dice.below(len(legal))])
        game.act(state, seat, move)
        lines.append(f"@{users[seat]} /play {move}")
    return lines


async def test_a_script_plays_a_whole_game_and_reports_posts_as_json(tmp_path: Path) -> None:
    lines = _script_for_a_whole_game(21)
    script = tmp_path / "game.txt"
    script.write_text("\n".join(["; seeded game", *lines, "@alice /game export"]) + "\n")
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"))
    await run_console(settings, script=str(script), as_json=True, out=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    fields = {"channel", "to", "text", "mentions", "appended", "images", "files", "choices"}
    assert all(set(r) == fields for r in records)
    game_over = [r for r in records if "Game over" in r["text"]]
    assert len(game_over) == 1 and game_over[0]["to"] is None and game_over[0]["images"]
    assert Path(game_over[0]["images"][0]).read_bytes().startswith(b"\x89PNG")
    export = records[-1]
    assert export["to"] == "alice"
    data = json.loads(Path(export["files"][0]).read_text())
    assert [m["notation"] for m in data["moves"]] == [line.split("/play ")[1] for line in lines[4:]]
    assert not any(r["to"] for r in records[:-1]), "a legal game produces no refusals"


async def test_a_later_post_never_overwrites_an_earlier_posts_file(tmp_path: Path) -> None:
    # The sixth play-test: `/game board` wrote over the move's picture of the same name, and every
    # post's events.txt was one file. Each post keeps its own, as a Discord message does.
    lines = _script_for_a_whole_game(23)
    script = tmp_path / "s.txt"
    script.write_text("\n".join([*lines[:6], "@alice /game board", "@alice /game board"]) + "\n")
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"))
    await run_console(settings, script=str(script), as_json=True, out=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    moved, *boards = [r for r in records if r["images"]][-3:]
    pictures = [moved["images"][-1], *(b["images"][-1] for b in boards)]
    assert len(set(pictures)) == 3, pictures
    drawn = [Path(p).read_bytes() for p in pictures]
    assert drawn[0] == drawn[1] == drawn[2], "the same board, each in a file of its own"
    # A second run into the same folder keeps the first run's files too.
    again = io.StringIO()
    follow = tmp_path / "t.txt"
    follow.write_text("@alice /game board\n")
    await run_console(settings, script=str(follow), as_json=True, out=again)
    latest = json.loads(again.getvalue().splitlines()[-1])["images"][-1]
    assert latest not in pictures and all(Path(p).exists() for p in pictures)


async def test_the_same_database_resumes_the_game_in_a_later_run(tmp_path: Path) -> None:
    lines = _script_for_a_whole_game(22)
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"))
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("\n".join(lines[:8]))
    second.write_text("\n".join(lines[8:]))
    await run_console(settings, script=str(first), out=io.StringIO())
    out = io.StringIO()
    await run_console(settings, script=str(second), out=out)
    assert "Game over" in out.getvalue()
    assert "private to" not in out.getvalue()


async def test_press_by_number_uses_the_last_posts_buttons(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(
        "\n".join(
            [
                "@alice /game new ignis seed:1",
                "@alice /game join",
                "@bob /game join",
                "@alice /game start",
                "@alice /press 2",
                "@alice /press 1",
                "@alice /press 2",
                "@alice /press 99",
            ]
        )
    )
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "db.sqlite3"), images_dir=str(tmp_path / "img"))
    await run_console(settings, script=str(script), out=out)
    text = out.getvalue()
    assert "[1] air …  [2] earth …" in text
    assert "alice (fire) plays `earth a1 east`" in text
    assert "There is no button 99" in text


def test_without_a_token_the_bot_starts_the_console(tmp_path: Path) -> None:
    env_file = tmp_path / "empty.env"
    env_file.write_text("")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "--env-file",
            str(env_file),
            "--db",
            str(tmp_path / "d.sqlite3"),
            "--images",
            str(tmp_path / "img"),
        ],
        input="@alice /game help\n/quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert "No DISCORD_TOKEN is set" in result.stderr
    assert "`ignis`" in result.stdout


def test_a_move_may_contain_a_colon() -> None:
    p = parse_line("@bob /play choose target:c5", "x")
    assert p is not None and p.args == {"action": "choose target:c5"}


def test_backup_command_writes_a_copy_that_opens(tmp_path: Path) -> None:
    db, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "b.sqlite3"
    (tmp_path / "empty.env").write_text("")
    base = [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "empty.env"), "--db", str(db)]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    made = subprocess.run(
        [*base, "console"],
        input="@a /game new ignis seed:3\n@b /play zz\n",  # a refusal, which is logged
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env=env,
    )
    assert made.returncode == 0, made.stderr
    # The console's players read the terminal: no log lines among the posts unless LOG_LEVEL asks.
    assert " INFO " not in made.stderr, made.stderr
    result = subprocess.run(
        [*base, "backup", "--to", str(copy)], capture_output=True, text=True, cwd=ROOT, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    assert "Backed up" in result.stdout
    with sqlite3.connect(copy) as con:
        assert con.execute("SELECT game, seed FROM sessions").fetchall() == [("ignis", 3)]


@pytest.mark.parametrize("entry", ["module", "script"])
def test_the_installed_bot_runs_from_any_folder(tmp_path: Path, entry: str) -> None:
    # Once installed, neither `python -m bot` nor the `tablebot` script may lean on the current
    # folder being the checkout (content files are package data, not paths from the cwd).
    command = (
        [sys.executable, "-m", "bot"]
        if entry == "module"
        else [str(Path(sys.executable).with_name("tablebot"))]
    )
    result = subprocess.run(
        [*command, "console", "--db", str(tmp_path / "d.sqlite3"), "--images", str(tmp_path / "img")],
        input="@alice /game new ignite seat:ratmen\n@alice /game start\n/quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert "Ignite" in result.stdout and "begins" in result.stdout, result.stdout[-2000:]
