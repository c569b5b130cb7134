"""engine.content: typed content files whose errors name the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field, model_validator

from engine.content import ContentError, ContentModel, content_path, load, parse


class Fighter(ContentModel):
    name: str
    melee: int = Field(ge=0)
    keywords: tuple[str, ...] = ()


class Roster(ContentModel):
    fighters: tuple[Fighter, ...]
    areas: dict[str, tuple[int, ...]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _distinct(self) -> Roster:
        names = [f.name for f in self.fighters]
        if len(set(names)) != len(names):
            raise ValueError("two fighters share a name")
        return self


GOOD = {"fighters": [{"name": "Ghoul", "melee": 2}, {"name": "Wraith", "melee": 1, "keywords": ["x"]}]}


def test_a_good_file_loads_into_frozen_models(tmp_path: Path) -> None:
    f = tmp_path / "roster.json"
    f.write_text('{"fighters": [{"name": "Ghoul", "melee": 2}]}')
    roster = load(f, Roster)
    assert roster.fighters[0].melee == 2
    with pytest.raises(Exception):  # noqa: B017 - frozen: pydantic raises its own error type
        roster.fighters[0].melee = 3  # type: ignore[misc]


def test_a_bad_field_names_file_entry_and_field() -> None:
    bad = {"fighters": [{"name": "Ghoul", "melee": 2}, {"name": "Wraith", "melee": "two"}]}
    with pytest.raises(ContentError) as err:
        parse(bad, Roster, "fighters.json")
    e = err.value
    assert (e.source, e.entry, e.field) == ("fighters.json", 'fighters[1] "Wraith"', "melee")
    assert str(e).startswith('fighters.json: entry fighters[1] "Wraith", field `melee`: ')
    assert '"two"' in str(e)


def test_a_missing_field_and_an_unknown_key_are_named() -> None:
    with pytest.raises(ContentError) as err:
        parse({"fighters": [{"name": "Ghoul"}]}, Roster, "f.json")
    assert (err.value.entry, err.value.field) == ('fighters[0] "Ghoul"', "melee")
    with pytest.raises(ContentError) as err:
        parse({"fighters": [{"name": "Ghoul", "melee": 1, "mele": 2}]}, Roster, "f.json")
    assert err.value.field == "mele"


def test_strict_json_refuses_a_number_in_quotes() -> None:
    with pytest.raises(ContentError):
        parse('{"fighters": [{"name": "G", "melee": "2"}]}', Roster, "f.json")


def test_nested_list_without_names_uses_the_position() -> None:
    with pytest.raises(ContentError) as err:
        parse({"fighters": [], "areas": {"glade": [1, "x"]}}, Roster, "map.json")
    assert (err.value.entry, err.value.field) == ("areas.glade[1]", "")


def test_a_model_validator_error_names_the_entry() -> None:
    with pytest.raises(ContentError) as err:
        parse({"fighters": [{"name": "G", "melee": 1}, {"name": "G", "melee": 1}]}, Roster, "f.json")
    assert "two fighters share a name" in str(err.value)


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_text('{\n"fighters": [,]}')
    with pytest.raises(ContentError) as err:
        load(f, Roster)
    assert "r.json" in str(err.value) and "line 2" in str(err.value)


def test_content_path_prefers_the_groups_own_file(tmp_path: Path) -> None:
    shipped, own = tmp_path / "shipped", tmp_path / "own"
    own.mkdir()
    (own / "a.json").write_text("{}")
    assert content_path("a.json", shipped, own) == own / "a.json"
    assert content_path("b.json", shipped, own) == shipped / "b.json"
    assert content_path("a.json", shipped, None) == shipped / "a.json"
