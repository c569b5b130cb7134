"""engine.content: typed content files whose errors name the file, the entry and the field."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import Field, model_validator

from engine.content import MAX_DEPTH, ContentError, ContentModel, content_path, load, parse


class Fighter(ContentModel):
    name: str
    melee: int = Field(ge=0, le=10)
    keywords: tuple[str, ...] = ()


class Roster(ContentModel):
    fighters: tuple[Fighter, ...]
    areas: dict[str, tuple[Annotated[int, Field(ge=0, le=99)], ...]] = Field(default_factory=dict)

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


# ---- whole classes of bad files (issue 26, item 6) ---------------------------------------------

GOOD_TEXT = '{"fighters": [{"name": "Ghoul", "melee": 2}, {"name": "Wraith", "melee": 1}]}'


def _fifo(f: Path) -> None:
    os.mkfifo(f)


def _loop(f: Path) -> None:
    f.symlink_to(f)


def _dangling(f: Path) -> None:
    f.symlink_to(f.parent / "nowhere.json")


NOT_A_FILE = {
    "a folder": (Path.mkdir, "is a folder where a regular file must be"),
    "a FIFO": (_fifo, "is a FIFO where a regular file must be"),  # opening it would wait forever
    "a symlink loop": (_loop, "cannot be read (Too many levels of symbolic links)"),
    "a dangling link": (_dangling, "cannot be read (No such file or directory)"),
}


@pytest.mark.parametrize("kind", list(NOT_A_FILE))
def test_what_is_not_a_regular_file_is_refused_never_skipped(tmp_path: Path, kind: str) -> None:
    make, problem = NOT_A_FILE[kind]
    shipped, own = tmp_path / "shipped", tmp_path / "own"
    own.mkdir()
    make(own / "roster.json")
    assert content_path("roster.json", shipped, own) == own / "roster.json"  # not our stand-in
    with pytest.raises(ContentError) as err:
        load(own / "roster.json", Roster)
    assert str(err.value) == f"roster.json: top level: {problem}."


# The bracket that goes one level too deep: three levels are open where `melee`'s value starts.
_DEEP_COLUMN = GOOD_TEXT.index('"melee": 2') + len('"melee": ') + 1 + (MAX_DEPTH + 1 - 4)
BAD_TEXT = {
    # what is written where in GOOD_TEXT -> the entry, the field and the problem named
    "invalid UTF-8 in a name": (
        b'"Wraith"',
        b'"Wr\xffith"',
        ('fighters[1] "Wr\ufffdith"', "name", "is not UTF-8 text (the byte 0xff)."),
    ),
    "invalid UTF-8 between values": (
        b"[{",
        b"[\xfe{",
        ("", "", "is not UTF-8 text (the byte 0xfe at line 1, column 15)."),
    ),
    "a 5000-digit number": (
        b'"melee": 1}',
        b'"melee": ' + b"7" * 5000 + b"}",
        (
            'fighters[1] "Wraith"',
            "melee",
            "is the number 777777777777… (5000 digits); no field takes a number that large.",
        ),
    ),
    "a number too large for a float": (
        b'"melee": 2',
        b'"melee": 1e999',
        ('fighters[0] "Ghoul"', "melee", "is the number 1e999, which is not finite."),
    ),
    "NaN": (
        b'"melee": 2',
        b'"melee": NaN',
        ('fighters[0] "Ghoul"', "melee", "is NaN, which JSON does not allow."),
    ),
    "a number above its bound": (
        b'"melee": 2',
        b'"melee": 1000000000',
        ('fighters[0] "Ghoul"', "melee", "Input should be less than or equal to 10 (got 1000000000)."),
    ),
    "nesting 10000 deep": (
        b'"melee": 2',
        b'"melee": ' + b"[" * 10000 + b"]" * 10000,
        ("", "", f"is nested more than {MAX_DEPTH} levels deep at line 1, column {_DEEP_COLUMN}."),
    ),
}


@pytest.mark.parametrize("kind", list(BAD_TEXT))
def test_a_file_that_cannot_be_decoded_names_the_file_entry_and_field(tmp_path: Path, kind: str) -> None:
    good, bad, (entry, field, problem) = BAD_TEXT[kind]
    f = tmp_path / "roster.json"
    f.write_bytes(GOOD_TEXT.encode().replace(good, bad, 1))
    with pytest.raises(ContentError) as err:
        load(f, Roster)
    assert (err.value.source, err.value.entry, err.value.field, err.value.problem) == (
        "roster.json",
        entry,
        field,
        problem,
    )
    assert "\n" not in str(err.value)


def test_a_content_model_with_an_unbounded_number_is_refused_where_it_is_defined() -> None:
    with pytest.raises(TypeError, match=r"Fighters\.melee: every number in a content file needs"):

        class Fighters(ContentModel):
            melee: int = Field(ge=0)

    with pytest.raises(TypeError, match=r"Areas\.areas"):

        class Areas(ContentModel):
            areas: dict[str, tuple[int, ...]]

    class Bounded(ContentModel):  # bounds inside the containers, on both sides: accepted
        melee: int | None = Field(default=None, ge=0, le=9)
        areas: dict[str, tuple[Annotated[float, Field(ge=0, le=1)], ...]] = Field(default_factory=dict)

    assert Bounded(melee=3).melee == 3
