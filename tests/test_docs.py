"""The README and docs/ stay true to the tree: every registered game has its page for players, and
every link leads to a file and a heading that exist (the commands they name are checked by
tests/bot/test_commands.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.registry import all_games

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "docs" / "games"
WRITTEN = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
# A Markdown link that is not a web address: [text](path), [text](path#heading), [text](#heading).
LINK = re.compile(r"\[[^\]]*\]\((?!https?://|mailto:)([^)\s]*)\)")
HEADING = re.compile(r"^#+ (.+)$", re.MULTILINE)


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_every_registered_game_has_its_page(game: str) -> None:
    page = PAGES / f"{game}.md"
    assert page.is_file(), (
        f"add docs/games/{game}.md: the game's page for players (its notation, options, stand-ins, "
        "bots, and a link to its readings in docs/rules-gaps.md), linked from the README's game table"
    )
    assert f"docs/games/{game}.md" in (ROOT / "README.md").read_text("utf-8"), (
        f"link docs/games/{game}.md from the README's game table"
    )


def test_no_page_for_a_game_that_is_not_registered() -> None:
    known = {g.id for g in all_games()}
    assert {p.stem for p in PAGES.glob("*.md")} <= known


def test_every_link_in_the_readme_and_docs_leads_to_a_file_and_heading_that_exist() -> None:
    broken = []
    for source in WRITTEN:
        for target in LINK.findall(source.read_text("utf-8")):
            path, _, heading = target.partition("#")
            to = (source.parent / path).resolve() if path else source
            where = f"{source.relative_to(ROOT)}: ({target})"
            if not to.exists():
                broken.append(f"{where}: no such file")
            elif heading and to.suffix == ".md":
                anchors = {anchor(h) for h in HEADING.findall(to.read_text("utf-8"))}
                if heading not in anchors:
                    broken.append(f"{where}: no such heading")
    assert not broken, broken


def test_a_broken_link_is_found() -> None:
    """The check is not vacuous: a link to a missing heading and one to a missing file are caught."""
    text = "[a](docs/rules-gaps.md#no-such-heading) [b](docs/nothing.md) [c](docs/rules-gaps.md)"
    found = LINK.findall(text)
    assert found == ["docs/rules-gaps.md#no-such-heading", "docs/nothing.md", "docs/rules-gaps.md"]
    assert anchor("Connect Four: public domain, no publisher's rulebook") == (
        "connect-four-public-domain-no-publishers-rulebook"
    )
