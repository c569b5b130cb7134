"""Content files are validated at start, and a group may bring its own (CONTENT_DIR)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.config import Settings
from bot.host import check_content
from engine import all_games, get_game
from engine.content import ContentError
from games.ignite.content import DATA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restore_shipped_content() -> Iterator[None]:
    yield
    check_content(Settings())  # back to the shipped stand-in data for every other test


def test_a_malformed_content_file_stops_the_start_naming_file_entry_and_field(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "ignite"
    folder.mkdir(parents=True)
    races = json.loads((DATA / "races.json").read_text())
    races["races"][1]["health"] = "three"
    (folder / "races.json").write_text(json.dumps(races))
    (tmp_path / "test.env").write_text(f"CONTENT_DIR={tmp_path / 'content'}\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--env-file",
            str(tmp_path / "test.env"),
            "--db",
            str(tmp_path / "d.sqlite3"),
        ],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode != 0
    assert "races.json" in result.stderr and '"{}"'.format(races["races"][1]["name"]) in result.stderr
    assert "`health`" in result.stderr


def test_a_groups_own_content_replaces_the_stand_in_file(
    tmp_path: Path, restore_shipped_content: None
) -> None:
    folder = tmp_path / "ignite"
    folder.mkdir()
    races = json.loads((DATA / "races.json").read_text())
    races["races"][1]["name"] = "granitefolk"
    (folder / "races.json").write_text(json.dumps(races))
    check_content(Settings(content_dir=str(tmp_path)))
    game = get_game("ignite")
    assert "granitefolk" in game.seat_names(game.validate_options({}))
    check_content(Settings())
    assert "granitefolk" not in game.seat_names(game.validate_options({}))


# ---- whole classes of bad files stop the start with one line (issue 26, item 6) ----------------

FIGHTERS = ROOT / "games" / "dire_alliance" / "data" / "fighters.json"


def _melee_1e9(f: Path) -> None:
    roster = json.loads(FIGHTERS.read_text())
    roster["factions"][0]["fighters"][0]["melee"] = 10**9  # the first melee would roll 10⁹ dice
    f.write_text(json.dumps(roster))


def _text_with(old: bytes, new: bytes) -> Callable[[Path], None]:
    return lambda f: f.write_bytes(FIGHTERS.read_bytes().replace(old, new, 1))


START_REFUSALS: dict[str, tuple[Callable[[Path], None], str]] = {
    "melee 10**9": (_melee_1e9, "field `melee`: Input should be less than or equal to 10"),
    "nested 100000 deep": (
        _text_with(b'"factions": ', b'"factions": ' + b"[" * 100_000),
        "levels deep at line",
    ),
    "invalid UTF-8": (_text_with(b'"The Empyreal"', b'"The Empyr\xe9al"'), "field `name`: is not UTF-8 text"),
    "a 5000-digit number": (_text_with(b'"melee": 2', b'"melee": ' + b"9" * 5000), "(5000 digits)"),
    "a folder": (Path.mkdir, "is a folder where a regular file must be"),
    "a FIFO": (os.mkfifo, "is a FIFO where a regular file must be"),
    "a symlink loop": (lambda f: f.symlink_to(f), "Too many levels of symbolic links"),
}


@pytest.mark.parametrize("kind", list(START_REFUSALS))
def test_a_bad_content_file_of_any_kind_stops_the_start_with_one_line(tmp_path: Path, kind: str) -> None:
    make, problem = START_REFUSALS[kind]
    folder = tmp_path / "content" / "dire-alliance"
    folder.mkdir(parents=True)
    make(folder / "fighters.json")
    (tmp_path / "test.env").write_text(f"CONTENT_DIR={tmp_path / 'content'}\n")
    db = str(tmp_path / "d.sqlite3")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--env-file", str(tmp_path / "test.env"), "--db", db],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith("Cannot start: a content file is malformed: fighters.json: "), lines[0]
    assert problem in lines[0]


# Games with content files, each with the folder of its shipped stand-in files.
CONTENT_GAMES = {
    g.id: data
    for g in all_games()
    for data in [Path(str(importlib.import_module(type(g).__module__).__file__)).parent / "data"]
    if data.is_dir()
}
HOSTILE_VALUES = st.one_of(
    st.integers(min_value=10**6, max_value=10**30),
    st.integers(min_value=-(10**30), max_value=-1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.sampled_from([[], {}, [[[]]], {"x": 1}]),
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        out += [p for k, v in node.items() for p in _paths(v, (*path, k))]
    elif isinstance(node, list):
        out += [p for i, v in enumerate(node) for p in _paths(v, (*path, i))]
    return out


def _replaced(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = dict(node) if isinstance(node, dict) else list(node)
    copy[path[0]] = _replaced(node[path[0]], path[1:], value)
    return copy


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


@st.composite
def hostile_file(draw: st.DrawFn, data: Path) -> tuple[str, str, bytes, bool]:
    """(file name, how it was made, hostile contents, whether they must be refused): a value anywhere
    replaced by a hostile one, a number made too large for any rule, or the text itself broken."""
    name = draw(st.sampled_from(sorted(p.name for p in data.glob("*.json"))))
    text = (data / name).read_bytes()
    raw = json.loads(text)
    how = draw(st.sampled_from(["value", "number", "bytes", "cut", "deep"]))
    if how == "value":
        path = draw(st.sampled_from(_paths(raw)[1:]))
        return name, how, json.dumps(_replaced(raw, path, draw(HOSTILE_VALUES))).encode(), False
    if how == "number":
        numbers = [p for p in _paths(raw) if type(_at(raw, p)) in (int, float)]
        if not numbers:
            return name, "text", text + b"x", True  # a file without numbers: broken instead
        path = draw(st.sampled_from(numbers))
        return name, how, json.dumps(_replaced(raw, path, draw(st.integers(10**6, 10**12)))).encode(), True
    at = draw(st.integers(0, len(text)))
    if how == "bytes":
        return (
            name,
            how,
            text[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + text[at:],
            True,
        )
    if how == "cut":
        return name, how, text[: min(at, len(text.rstrip()) - 1)], True  # the closing bracket at least
    return name, how, b"[" * draw(st.integers(25, 5000)) + text, True


@pytest.mark.parametrize("game_id", sorted(CONTENT_GAMES))
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_hostile_content_files_are_refused_with_one_line_naming_the_file(
    game_id: str, data: st.DataObject, restore_shipped_content: None
) -> None:
    name, how, contents, must_refuse = data.draw(hostile_file(CONTENT_GAMES[game_id]))
    game = get_game(game_id)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / name).write_bytes(contents)
        try:
            game.check_content(folder)
        except ValueError as exc:  # ContentError, or a game's own check of a file's shape
            line = str(exc)
            assert "\n" not in line and name in line, line
            if isinstance(exc, ContentError) and must_refuse:
                assert exc.source == name
            if isinstance(exc, ContentError) and how == "number":  # a field's own bound refused it
                assert exc.entry or exc.field, line
            return
    assert not must_refuse, f"{name}: {contents[:300]!r} was accepted"


@pytest.mark.usefixtures("restore_shipped_content")
def test_a_misnamed_content_file_or_folder_is_named_at_start(tmp_path: Path) -> None:
    """`unit.json` for units.json, or a `battle-lore/` folder, was skipped without a word and the
    stand-ins were served: the start stops, naming the stray entry and the names the bot reads."""
    root = tmp_path / "content"
    (root / "battle-lore").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"holds battle-lore, which the bot does not read") as stray:
        check_content(Settings(content_dir=str(root)))
    assert "battlelore" in str(stray.value) and "\n" not in str(stray.value)
    (root / "battle-lore").rmdir()
    (root / "battlelore").mkdir()
    (root / "battlelore" / "unit.json").write_text("{}")
    (root / "battlelore" / ".unit.json.swp").write_text("")  # an editor's hidden file is no one's
    with pytest.raises(ValueError, match=r"holds unit\.json, which the bot does not read") as misnamed:
        check_content(Settings(content_dir=str(root)))
    assert "units.json" in str(misnamed.value), "the names it reads are listed"
    (root / "battlelore" / "unit.json").unlink()
    check_content(Settings(content_dir=str(root)))
