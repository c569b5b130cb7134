"""Every reading of a rule the rulebook leaves open is written where people look for it: next to
the code that plays it (`# reading: <name>` on its own line), in docs/rules-gaps.md
(`<!-- reading: <name> -->` in the game's section, which opens with `<!-- game: <id> -->`) and in
the game's `/game help` readings, which players see without the name. Driven by the registry: a
new game is checked the day it registers."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from engine import all_games
from engine.game import Game

GAMES = all_games()
ROOT = Path(__file__).resolve().parents[2]
GAPS = ROOT / "docs" / "rules-gaps.md"

NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"
# Any own-line comment that opens with "reading:" is a marker, so a mistyped name is reported.
CODE_MARK = re.compile(r"^[ \t]*#[ \t]*reading:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
DOC_MARK = re.compile(r"<!--\s*reading:\s*(.*?)\s*-->")
SECTION = re.compile(r"<!--\s*game:\s*(\S+)\s*-->")


def _package(game: Game[Any, Any]) -> Path:
    module = importlib.import_module(type(game).__module__)
    return Path(module.__file__ or "").parent


def code_marks(game: Game[Any, Any]) -> dict[str, list[str]]:
    """Each reading name marked in the game's package, with where (file:line)."""
    marks: dict[str, list[str]] = {}
    folder = _package(game)
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in CODE_MARK.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            marks.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{line}")
    return marks


def doc_sections() -> dict[str, str]:
    """docs/rules-gaps.md cut into each game's section, by the id its `<!-- game: -->` names."""
    text = GAPS.read_text(encoding="utf-8")
    starts = list(SECTION.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return {m.group(1): text[m.end() : end] for m, end in zip(starts, ends, strict=False)}


def doc_marks(section: str) -> list[str]:
    return DOC_MARK.findall(section)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_reading_is_marked_in_code_in_rules_gaps_and_in_help(game: Game[Any, Any]) -> None:
    sections = doc_sections()
    assert game.id in sections, f"docs/rules-gaps.md has no section marked <!-- game: {game.id} -->"
    in_code = code_marks(game)
    in_docs = doc_marks(sections[game.id])
    in_help = game.teaching().readings
    assert len(in_docs) == len(set(in_docs)), f"a reading bullet twice in docs/rules-gaps.md: {in_docs}"
    bad = [n for n in (*in_code, *in_docs, *in_help) if not re.fullmatch(NAME, n)]
    assert not bad, f"reading names are lower-case words joined by hyphens: {bad}"
    where = {"the code": set(in_code), "docs/rules-gaps.md": set(in_docs), "/game help": set(in_help)}
    missing = [
        f"`{name}` ({', '.join(in_code.get(name, ['not in the code']))}) is missing from {place}"
        for place, names in where.items()
        for name in sorted(set().union(*where.values()) - names)
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_players_never_see_a_reading_name(game: Game[Any, Any]) -> None:
    text = game.rules_help()
    shown = [name for name in game.teaching().readings if re.search(rf"(?<![\w-]){name}(?![\w-])", text)]
    assert not shown, shown
    assert all(t.strip() for t in game.teaching().readings.values())


def test_every_section_is_a_registered_game() -> None:
    assert set(doc_sections()) == {g.id for g in GAMES}
