"""The newest CHANGELOG.md entry tells operators the truth about an upgrade: the storage
migrations this code knows and every registered game's rules version (docs/operating.md
"Upgrading" decides from them whether processes may be rolled one at a time). A migration or a
rules version added without its line in the CHANGELOG fails here."""

from __future__ import annotations

import re
from pathlib import Path

from engine import all_games
from storage.migrations import MIGRATIONS

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"


def _newest_entry() -> str:
    entries = re.split(r"^## ", CHANGELOG.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert len(entries) > 1, "CHANGELOG.md has no entry (## Unreleased or ## <version>)"
    return entries[1]


def test_the_newest_entry_names_the_last_storage_migration() -> None:
    found = re.search(r"^\* \*\*Database\*\*: migrations 1–(\d+)\.$", _newest_entry(), re.MULTILINE)
    assert found, "the newest CHANGELOG.md entry has no line `* **Database**: migrations 1–N.`"
    assert int(found[1]) == len(MIGRATIONS), (
        f"CHANGELOG.md says migrations 1–{found[1]}; storage/migrations.py has {len(MIGRATIONS)}"
    )


def test_the_newest_entry_names_every_games_rules_version() -> None:
    found = re.search(r"^\* \*\*Rules versions\*\*: (.+)\.$", _newest_entry(), re.MULTILINE)
    assert found, "the newest CHANGELOG.md entry has no line `* **Rules versions**: <game> N, ….`"
    written = dict(pair.rsplit(" ", 1) for pair in found[1].split(", "))
    current = {game.id: str(game.rules_version) for game in all_games()}
    assert written == current, f"CHANGELOG.md says {written}; the registered games play {current}"
