"""The repository is its parts joined over one core (storage/repository.py). Joining classes lets a
name defined twice silently hide one of them, and a part built on another part reaches more than
its module says; both are checked here for every part, present and future."""

from __future__ import annotations

from storage.core import RepositoryCore
from storage.repository import Repository


def _parts() -> list[type]:
    return [c for c in Repository.__mro__[1:] if issubclass(c, RepositoryCore) and c is not RepositoryCore]


def test_each_part_builds_on_the_core_alone() -> None:
    parts = _parts()
    assert len(parts) >= 2
    for part in parts:
        assert part.__bases__ == (RepositoryCore,), part.__name__


def test_no_name_is_defined_by_two_parts_or_by_a_part_and_the_core() -> None:
    owner = {name: "RepositoryCore" for name in vars(RepositoryCore) if not name.startswith("__")}
    for part in _parts():
        for name in vars(part):
            if name.startswith("__"):
                continue
            assert name not in owner, f"{name} is defined by both {owner[name]} and {part.__name__}"
            owner[name] = part.__name__
