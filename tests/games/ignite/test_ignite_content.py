"""Ignite content files: the shipped data loads, and malformed files are refused by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.content import ContentError
from games.ignite.content import DATA, load_content


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    return folder


def _edit(folder: Path, name: str, change: Any) -> None:
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_shipped_content_is_complete() -> None:
    c = load_content()
    assert len(c.powers) == 15 and len(c.apocalypses) == 7
    assert {"hardened", "ambush left", "ambush right", "catapult"} <= set(c.powers)
    assert {k: len(v) for k, v in c.rounds.items()} == {"1": 20, "2-6": 20, "7-8": 20}
    assert all(s[19].boss == "elder dragon" for s in c.rounds.values())
    assert c.starting == {"march": 5, "dagger": 4, "old wooden shield": 3}
    assert len(c.market.suggested) == 16 and "hex" in c.cards
    assert len(c.races) >= 8 and "ratmen" in c.races
    assert any(p.shuffle for p in c.powers.values())


def test_missing_field_names_file_entry_and_field(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "cards.json", lambda d: d["cards"][3].pop("cost"))
    want = r'cards\.json: entry cards\[3\] "arrow", field `cost`: Field required'
    with pytest.raises(ContentError, match=want):
        load_content(folder)


def test_wrong_type_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "races.json", lambda d: d["races"][1].update(health="four"))
    want = r'races\.json: entry races\[1\] "stoneborn", field `health`: .*valid integer'
    with pytest.raises(ContentError, match=want):
        load_content(folder)


def test_unknown_colour_in_round_group(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "rounds.json", lambda d: d["sets"]["2-6"][4]["groups"][2].update(spawn=[["pink", 1]]))
    with pytest.raises(ContentError, match=r"rounds\.json: entry sets\.2-6\[4\]\.groups\[2\]\.spawn.*pink"):
        load_content(folder)


def test_round_cards_must_be_in_order(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "rounds.json", lambda d: d["sets"]["1"][2].update(round=7))
    with pytest.raises(ContentError, match=r"rounds\.json: entry sets\.1\[2\], field `round`: must be 3"):
        load_content(folder)


def test_unknown_power_effect(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "powers.json", lambda d: d["power"][0]["effects"].update(teleport=True))
    want = r'powers\.json: entry power\[0\] "hardened", field `effects\.teleport`'
    with pytest.raises(ContentError, match=want):
        load_content(folder)


def test_excluded_card_in_market(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "cards.json", lambda d: d["market"]["exclude"].append("arrow"))
    with pytest.raises(ContentError, match=r"cards\.json: entry market, field `suggested`: holds `arrow`"):
        load_content(folder)


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "powers.json").write_text("{not json")
    with pytest.raises(ContentError, match=r"powers\.json: .*not valid JSON"):
        load_content(folder)


def test_a_card_whose_range_does_not_reach_is_refused_by_name(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "cards.json", lambda d: d["cards"][3].update(range=[0, 0]))
    with pytest.raises(ContentError, match=r'cards\.json: entry cards\[3\] "arrow": .*reach at least 1'):
        load_content(folder)


def test_a_missing_file_falls_back_to_the_stand_in(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "races.json").unlink()
    assert "ratmen" in load_content(folder).races
